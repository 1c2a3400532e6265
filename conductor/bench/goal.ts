// One goal of `npm run bench`, met or not, as a line scripts/bench-figures.mjs gathers into the
// one table of docs/benchmark-figures.md (`bench-goal {json}`; scripts/benchGoal.mjs prints the
// same line for the browser benches). `met: null` is a figure reported with no goal to chase.
export interface BenchGoal {
  /** The bench's area, as docs/benchmarks.md names it (Conductor, Chat, Real agents, …). */
  area: string;
  goal: string;
  figure: string;
  met: boolean | null;
}

export function printGoal(g: BenchGoal): void {
  console.log(`bench-goal ${JSON.stringify(g)}`);
}
