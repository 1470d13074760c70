-- SQLite schema, version 2 (SPEC D21): a lease is a capability. The store keeps the SHA-256 (hex)
-- of the secret token it handed to the holder; renew, release and commit present the token and
-- match its hash. A lease granted before this version has no hash, so no token matches it: its
-- holder is fenced and the run is taken over once it expires. Released: never edit this file; add
-- the next version instead. Statements end with ';' at the end of a line outside $$ bodies.
-- description: lease token hashes (leases are capabilities)

ALTER TABLE ratchet_leases ADD COLUMN token_hash TEXT;
