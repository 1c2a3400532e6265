// ElizACP entry point: `conductor eliza [--deterministic] [--no-http-mcp] [--legacy-models] [--load-session] [--resume] [--fork] [--no-delete] [--fail-delete] [--hang-list] [--no-additional-directories] [--state-dir D]` (wired in
// conductor/main.ts) or `node --import tsx conductor/eliza/standalone.ts …` in tests.
// Serves one ACP connection on stdin/stdout; stdout carries protocol only, logs go to stderr.
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { createElizaAgent } from './agent';
import type { AgentOptions } from './agent';
import { logError } from './log';
import { defaultAuthFile, runTerminalLogin, TERMINAL_LOGIN_FLAG } from './auth';

export { createElizaAgent } from './agent';
export type { AgentOptions, ElizaAgent } from './agent';
export { respond } from './engine';

export const USAGE =
  'usage: conductor eliza [--deterministic] [--no-http-mcp] [--legacy-models] [--load-session] [--resume] [--fork] [--no-delete] [--fail-delete] [--hang-list] [--no-additional-directories] [--state-dir D] [--require-auth | --offer-auth [--auth-file F]] [--steering]';

/** Parses ElizACP's flags. Unknown flags are an error so typos in test setups fail loudly. */
export function parseElizaArgs(argv: readonly string[]): AgentOptions {
  const options: AgentOptions = { deterministic: false, httpMcp: true, legacyModels: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--deterministic') options.deterministic = true;
    else if (arg === '--load-session') options.loadSession = true;
    else if (arg === '--resume') options.resume = true;
    else if (arg === '--fork') options.fork = true;
    else if (arg === '--no-delete') options.noDelete = true;
    else if (arg === '--fail-delete') options.failDelete = true;
    else if (arg === '--hang-list') options.hangList = true;
    else if (arg === '--no-additional-directories') options.noAdditionalDirectories = true;
    else if (arg === '--steering') options.steering = true;
    else if (arg === '--state-dir') {
      const dir = argv[++i];
      if (!dir) throw new Error(`eliza: --state-dir needs a folder\n${USAGE}`);
      options.stateDir = dir;
    } else if (arg === '--require-auth') options.requireAuth = true;
    else if (arg === '--offer-auth') options.offerAuth = true;
    else if (arg === '--auth-file') {
      const file = argv[++i];
      if (!file) throw new Error(`eliza: --auth-file needs a file\n${USAGE}`);
      options.authFile = file;
    } else if (arg === TERMINAL_LOGIN_FLAG) options.terminalLogin = true;
    else if (arg === '--no-http-mcp') options.httpMcp = false;
    else if (arg === '--legacy-models') options.legacyModels = true;
    else throw new Error(`eliza: unknown argument '${arg}'\n${USAGE}`);
  }
  return options;
}

export async function runEliza(argv: string[]): Promise<void> {
  const options = parseElizaArgs(argv);
  // The terminal sign-in method runs ElizACP's command line again with this flag: log in, exit.
  if (options.terminalLogin) process.exit(await runTerminalLogin(options.authFile ?? defaultAuthFile()));
  // A stray console.log from any library would corrupt the protocol stream.
  console.log = console.info = console.debug = (...args: unknown[]) => console.error(...args);

  const { app, shutdown } = createElizaAgent(options);
  const stream = acp.ndJsonStream(
    Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
    Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
  );
  const connection = app.connect(stream);
  const stop = (): void => connection.close();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  // The client went away (EPIPE): nothing more to say to anyone.
  process.stdout.on('error', stop);

  await connection.closed;
  process.off('SIGTERM', stop);
  process.off('SIGINT', stop);
  // Close MCP clients (kills stdio servers) but never hang on a server that does not answer.
  await Promise.race([shutdown(), new Promise((resolve) => setTimeout(resolve, 2000).unref())]).catch((err: unknown) =>
    logError(`shutdown: ${String(err)}`),
  );
  // Whatever still holds the event loop (e.g. a client-side terminal we never released) must
  // not keep a disconnected agent alive.
  setTimeout(() => process.exit(0), 500).unref();
}
