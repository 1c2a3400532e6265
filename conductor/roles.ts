// The roles the conductor's one file serves besides the proxy (main.ts). The launcher reads them
// too: it starts an agent early only for the proxy's command line (launcher.ts).
export const OTHER_ROLES = ['eliza', 'mcp-bridge', 'vscodelm', '--help', '-h'] as const;
export type OtherRole = (typeof OTHER_ROLES)[number];

/** Whether the first argument names one of OTHER_ROLES; anything else is the proxy's command line. */
export const isOtherRole = (arg: string | undefined): arg is OtherRole => (OTHER_ROLES as readonly (string | undefined)[]).includes(arg);
