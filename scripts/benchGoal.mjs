// One goal of `npm run bench` from a browser bench, as conductor/bench/goal.ts prints it for the
// others: a `bench-goal {json}` line that scripts/bench-figures.mjs gathers into one table.
/** @param {{ area: string; goal: string; figure: string; met: boolean | null }} g */
export function printGoal(g) {
  console.log(`bench-goal ${JSON.stringify(g)}`);
}
