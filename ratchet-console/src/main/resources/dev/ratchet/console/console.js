// The console's only script (D30, ADR 0092): the human's Ed25519 key lives in this browser, in
// IndexedDB, as a non-extractable WebCrypto key; the server never sees it. A preview page carries
// the exact bytes to sign (data-payload, base64url); this script signs them and posts the
// signature. The key id (public) travels in the ratchet_signer cookie so previews name the signer.
(function () {
  'use strict';
  const DB = 'ratchet-console';
  const STORE = 'keys';
  const ID = 'signer';
  const ALG = { name: 'Ed25519' };

  function open() {
    return new Promise((resolve, reject) => {
      const r = indexedDB.open(DB, 1);
      r.onupgradeneeded = () => r.result.createObjectStore(STORE);
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
  }

  async function load() {
    const db = await open();
    return new Promise((resolve, reject) => {
      const r = db.transaction(STORE, 'readonly').objectStore(STORE).get(ID);
      r.onsuccess = () => resolve(r.result || null);
      r.onerror = () => reject(r.error);
    });
  }

  async function save(value) {
    const db = await open();
    return new Promise((resolve, reject) => {
      const tx = db.transaction(STORE, 'readwrite');
      tx.objectStore(STORE).put(value, ID);
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    });
  }

  function base64url(bytes) {
    let s = '';
    bytes.forEach((b) => { s += String.fromCharCode(b); });
    return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }

  function fromBase64url(text) {
    let t = text.replace(/-/g, '+').replace(/_/g, '/');
    while (t.length % 4) t += '=';
    return Uint8Array.from(atob(t), (c) => c.charCodeAt(0));
  }

  function pem(label, der) {
    let s = '';
    new Uint8Array(der).forEach((b) => { s += String.fromCharCode(b); });
    const body = btoa(s).match(/.{1,64}/g).join('\n');
    return '-----BEGIN ' + label + '-----\n' + body + '\n-----END ' + label + '-----\n';
  }

  // As the server computes it: the first 16 hex digits of SHA-256 over the X.509 encoding.
  async function keyIdOf(spki) {
    const h = new Uint8Array(await crypto.subtle.digest('SHA-256', spki));
    return Array.from(h.slice(0, 8)).map((b) => b.toString(16).padStart(2, '0')).join('');
  }

  function announce(keyId) {
    document.cookie = 'ratchet_signer=' + keyId + '; Path=/; SameSite=Strict';
  }

  async function remember(privateKey, spki) {
    const keyId = await keyIdOf(spki);
    await save({ privateKey: privateKey, spki: new Uint8Array(spki), keyId: keyId });
    announce(keyId);
    return keyId;
  }

  async function generate() {
    const pair = await crypto.subtle.generateKey(ALG, false, ['sign', 'verify']);
    return remember(pair.privateKey, await crypto.subtle.exportKey('spki', pair.publicKey));
  }

  // Imported once: the public key is derived through a transient extractable copy (its JWK 'x'),
  // and only a non-extractable copy of the private key is kept.
  async function importPkcs8(text) {
    const body = text.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');
    const der = Uint8Array.from(atob(body), (c) => c.charCodeAt(0));
    const transient = await crypto.subtle.importKey('pkcs8', der, ALG, true, ['sign']);
    const jwk = await crypto.subtle.exportKey('jwk', transient);
    const pub = await crypto.subtle.importKey(
      'jwk', { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, ALG, true, ['verify']);
    const spki = await crypto.subtle.exportKey('spki', pub);
    const kept = await crypto.subtle.importKey('pkcs8', der, ALG, false, ['sign']);
    der.fill(0);
    return remember(kept, spki);
  }

  async function showKey() {
    const status = document.getElementById('key-status');
    const k = await load();
    if (!k) {
      status.textContent = 'This browser holds no signing key yet.';
      return;
    }
    announce(k.keyId);
    status.textContent = 'This browser holds a signing key (non-extractable).';
    document.getElementById('public-key').textContent = pem('PUBLIC KEY', k.spki);
    document.getElementById('key-id').textContent = k.keyId;
  }

  function keysPage() {
    const status = document.getElementById('key-status');
    const fail = (e) => { status.textContent = 'Failed: ' + (e && e.message ? e.message : e); };
    document.getElementById('generate').addEventListener('click', () => {
      generate().then(showKey, fail);
    });
    document.getElementById('import').addEventListener('click', () => {
      const area = document.getElementById('pkcs8');
      importPkcs8(area.value).then(() => { area.value = ''; return showKey(); }, fail);
    });
    showKey().catch(fail);
  }

  function signPage(form) {
    const status = document.getElementById('sign-status');
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      (async () => {
        const k = await load();
        if (!k) {
          status.textContent = 'This browser holds no signing key: open Keys first.';
          return;
        }
        if (k.keyId !== form.elements.key_id.value) {
          status.textContent = 'This decision was built for key ' + form.elements.key_id.value
            + ' but this browser holds ' + k.keyId + ': open the action again.';
          return;
        }
        const bytes = fromBase64url(document.getElementById('payload').dataset.payload);
        const sig = new Uint8Array(await crypto.subtle.sign(ALG, k.privateKey, bytes));
        form.elements.signature.value = base64url(sig);
        form.submit();
      })().catch((e) => { status.textContent = 'Not signed: ' + (e && e.message ? e.message : e); });
    });
  }

  document.addEventListener('DOMContentLoaded', () => {
    if (document.getElementById('browser-key')) {
      keysPage();
      return;
    }
    const form = document.getElementById('sign-form');
    if (form) {
      signPage(form);
    }
    load().then((k) => { if (k) announce(k.keyId); }, () => {});
  });
})();
