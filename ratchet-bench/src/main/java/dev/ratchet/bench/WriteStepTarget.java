package dev.ratchet.bench;

/**
 * Issue 38's targets for write steps/s against DBOS (figure 7): one run, goal 1.0× and floor 0.7×;
 * eight runs, goal 1.2× and floor 0.8× (issue 16's 1.0× / 0.6× before it).
 */
record WriteStepTarget(double goal, double floor) {
  static WriteStepTarget forRuns(int runs) {
    return runs == 1 ? new WriteStepTarget(1.0, 0.7) : new WriteStepTarget(1.2, 0.8);
  }

  String text() {
    return Row.goalAndFloor(goal, floor);
  }

  String verdict(double ratio) {
    return Row.goalOrFloor(ratio, goal, floor);
  }
}
