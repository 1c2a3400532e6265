// The roles the conductor's one file serves besides the proxy (main.ts). The launcher reads them
// too: it starts an agent early only for the proxy's command line (launcher.ts).
export const OTHER_ROLES = ['eliza', 'mcp-bridge', 'vscodelm', '--help', '-h', '--version', '-V'] as const;
export type OtherRole = (typeof OTHER_ROLES)[number];

/** Whether the first argument names one of OTHER_ROLES; anything else is the proxy's command line. */
export const isOtherRole = (arg: string | undefined): arg is OtherRole => (OTHER_ROLES as readonly (string | undefined)[]).includes(arg);

/**
 * A mistake in the command line or the configuration file: said in one line, without a stack.
 * Recognized by name, not `instanceof`: it is thrown in the proxy's bundle and caught in the
 * launcher's, each with its own copy of the class.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const isUsageError = (err: unknown): err is UsageError => err instanceof Error && err.name === 'UsageError';
