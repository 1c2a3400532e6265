// `symposium.sparkle.*` → the conductor's `--sparkle-*` flags (conductor/components/sparkle/
// options.ts parses them). Window-scoped settings: they choose which identity the agent takes on
// and whether Sparkle keeps files in the workspace, nothing that runs. A bad value is reported and
// left out, so the conductor uses its default instead of refusing to start. A sparkler's name is a
// folder name: the conductor checks it with the same rule (src/protocol/plainName.ts). Pure.
import { plainNameProblem } from '../protocol/plainName';

export interface RawSparkleSettings {
  sparkler: unknown;
  mode: unknown;
  checkpointEvery: unknown;
}

export interface SparkleFlags {
  /** Flags for the conductor's command line, in a fixed order (they are part of the process key). */
  flags: string[];
  problems: string[];
}

export function sparkleFlags(raw: RawSparkleSettings): SparkleFlags {
  const flags: string[] = [];
  const problems: string[] = [];
  if (raw.sparkler !== undefined && raw.sparkler !== null) {
    const name = typeof raw.sparkler === 'string' ? raw.sparkler.trim() : undefined;
    const problem = name === undefined ? 'must be a string' : name === '' ? undefined : plainNameProblem(name);
    if (problem) problems.push(`symposium.sparkle.sparkler ${problem}; using the profile's default sparkler`);
    else if (name) flags.push('--sparkle-sparkler', name);
  }
  if (raw.mode !== undefined && raw.mode !== null) {
    if (raw.mode === 'full' || raw.mode === 'core') flags.push('--sparkle-mode', raw.mode);
    else problems.push('symposium.sparkle.mode must be "full" or "core"; using "full"');
  }
  if (raw.checkpointEvery !== undefined && raw.checkpointEvery !== null) {
    const n = raw.checkpointEvery;
    if (typeof n === 'number' && Number.isSafeInteger(n) && n >= 0) flags.push('--sparkle-checkpoint-every', String(n));
    else problems.push('symposium.sparkle.checkpointEvery must be a whole number ≥ 0; using 20');
  }
  return { flags, problems };
}
