// Sparkle's settings as the conductor receives them: command-line flags that the extension builds
// from `symposium.sparkle.*` (src/settings/sparkleSettings.ts), parsed by conductor/cli.ts with the
// function below. Bad values are refused at start-up, with the flag's name, rather than ignored.
import { checkName, SparkleError } from './names';

export type SparkleMode = 'full' | 'core';

export interface SparkleOptions {
  /** The sparkler sessions embody; undefined: the profile's default. */
  sparkler?: string;
  /** `core` keeps nothing in the workspace (no .sparkle-space/, no session_checkpoint). */
  mode: SparkleMode;
  /** User prompts between checkpoint nudges; 0 = never. */
  checkpointEvery: number;
  /** After this long the embodiment turn is cancelled and held prompts go on. */
  embodimentTimeoutMs: number;
  /** The home store; default `$SPARKLE_DIR` or ~/.sparkle (tests pass their own). */
  homeDir?: string;
}

export const DEFAULT_CHECKPOINT_EVERY = 20;

export function defaultSparkleOptions(env: NodeJS.ProcessEnv = process.env): SparkleOptions {
  const timeout = Number(env.SYMPOSIUM_SPARKLE_EMBODIMENT_TIMEOUT_MS);
  return {
    mode: 'full',
    checkpointEvery: DEFAULT_CHECKPOINT_EVERY,
    embodimentTimeoutMs: env.SYMPOSIUM_SPARKLE_EMBODIMENT_TIMEOUT_MS && Number.isFinite(timeout) && timeout > 0 ? timeout : 120_000,
  };
}

export const SPARKLE_FLAGS = ['--sparkle-sparkler', '--sparkle-mode', '--sparkle-checkpoint-every'] as const;
export const SPARKLE_USAGE = '[--sparkle-sparkler NAME] [--sparkle-mode full|core] [--sparkle-checkpoint-every N]';

export const isSparkleFlag = (flag: string): boolean => (SPARKLE_FLAGS as readonly string[]).includes(flag);

/** Applies one `--sparkle-*` flag to `options`; throws with a readable reason on a bad value. */
export function applySparkleFlag(options: SparkleOptions, flag: string, value: string): void {
  switch (flag) {
    case '--sparkle-sparkler':
      // Empty means "the profile's default" (what an unset setting passes).
      if (value.trim() === '') delete options.sparkler;
      else {
        try {
          options.sparkler = checkName('--sparkle-sparkler', value);
        } catch (err) {
          throw new Error((err as SparkleError).message);
        }
      }
      return;
    case '--sparkle-mode':
      if (value !== 'full' && value !== 'core') throw new Error(`--sparkle-mode must be "full" or "core", not "${value}"`);
      options.mode = value;
      return;
    case '--sparkle-checkpoint-every': {
      const n = Number(value);
      if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n))
        throw new Error(`--sparkle-checkpoint-every must be a whole number ≥ 0, not "${value}"`);
      options.checkpointEvery = n;
      return;
    }
    default:
      throw new Error(`unknown option "${flag}"`);
  }
}
