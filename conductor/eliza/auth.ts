// ElizACP's sign-in (`--require-auth`), so a client's every sign-in path can be tested against a
// real agent. It advertises three ACP auth methods and refuses `session/new` with the ACP
// auth-required error (-32000) until one of them worked (`--offer-auth`: the same methods, but
// nothing is refused: sign-in is optional, as for agents with a free tier). The prompt
// `sign-in status` says how the client signed in:
// - `eliza-login` (agent-handled): the client calls `authenticate {methodId}`; signed in for the
//   life of this process.
// - `eliza-terminal` (`type: "terminal"`, only when the client said `auth.terminal`): the client
//   runs ElizACP's own command line again with `--terminal-login` added, in a terminal; that run
//   writes a token to the auth file (`--auth-file F`) and exits 0. Every later ElizACP with the
//   same auth file is signed in.
// - `eliza-api-key` (`type: "env_var"`, the auth-methods RFD): set ELIZACP_API_KEY in the agent's
//   environment. The value is never logged.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';

export const AGENT_METHOD_ID = 'eliza-login';
export const TERMINAL_METHOD_ID = 'eliza-terminal';
export const ENV_METHOD_ID = 'eliza-api-key';
export const API_KEY_VAR = 'ELIZACP_API_KEY';
/** Appended to ElizACP's command line by the terminal method. */
export const TERMINAL_LOGIN_FLAG = '--terminal-login';

/** Where the terminal login leaves its token unless `--auth-file` says otherwise. */
export const defaultAuthFile = (): string => join(tmpdir(), `elizacp-auth-${process.getuid?.() ?? 'user'}.token`);

/** `none`: no methods; `required`: `--require-auth`; `offered`: `--offer-auth`. */
export type ElizaAuthMode = 'none' | 'required' | 'offered';

export class ElizaAuth {
  /** The agent-handled method the client authenticated with, in this process. */
  private signedInWith: string | undefined;

  constructor(
    private readonly mode: ElizaAuthMode,
    private readonly authFile: string,
  ) {}

  private get required(): boolean {
    return this.mode === 'required';
  }

  /** `initialize`'s authMethods: none unless sign-in is required or offered; the terminal one only for clients that can run it. */
  methods(caps: acp.ClientCapabilities | undefined): acp.AuthMethod[] {
    if (this.mode === 'none') return [];
    const methods: acp.AuthMethod[] = [
      { id: AGENT_METHOD_ID, name: 'Sign in to ElizACP', description: 'ElizACP signs you in by itself (no browser needed).' },
    ];
    if (caps?.auth?.terminal)
      methods.push({
        type: 'terminal',
        id: TERMINAL_METHOD_ID,
        name: 'Sign in from a terminal',
        description: 'Runs ElizACP’s login in a terminal; it saves a token for every later ElizACP.',
        args: [TERMINAL_LOGIN_FLAG],
      });
    // Not in the v1 schema yet (the auth-methods RFD): a key the user sets in the agent's environment.
    methods.push({
      type: 'env_var',
      id: ENV_METHOD_ID,
      name: 'Use an API key',
      description: `Set ${API_KEY_VAR} in ElizACP's environment.`,
      varName: API_KEY_VAR,
    } as unknown as acp.AuthMethod);
    return methods;
  }

  /** `authenticate {methodId}`: only the agent-handled method is answered here. */
  authenticate(methodId: string): void {
    if (this.mode === 'none') return;
    if (methodId === TERMINAL_METHOD_ID || methodId === ENV_METHOD_ID)
      throw acp.RequestError.invalidParams({ methodId }, `${methodId} is not sent to authenticate (ACP: the client handles it)`);
    if (methodId !== AGENT_METHOD_ID) throw acp.RequestError.invalidParams({ methodId }, `unknown auth method '${methodId}'`);
    this.signedInWith = methodId;
  }

  /** Whether `initialize` lists sign-in methods (and so offers `logout`). */
  get offersSignIn(): boolean {
    return this.mode !== 'none';
  }

  /**
   * ACP `logout`: forgets this process's sign-in and removes the terminal login's token, so the
   * next `session/new` (with `--require-auth`) asks again. A key in the environment is the
   * user's to unset; it still counts.
   */
  logout(): void {
    if (this.mode === 'none') throw acp.RequestError.methodNotFound('logout');
    this.signedInWith = undefined;
    rmSync(this.authFile, { force: true });
  }

  /** How the client is signed in, if it is (never the key's value). */
  status(): string {
    if (this.signedInWith) return `Signed in with ${this.signedInWith}.`;
    if (existsSync(this.authFile)) return `Signed in with ${TERMINAL_METHOD_ID} (token file).`;
    if ((process.env[API_KEY_VAR] ?? '') !== '') return `Signed in with ${ENV_METHOD_ID}.`;
    return 'Not signed in.';
  }

  /** Throws the ACP auth-required error unless one of the methods has worked. */
  requireSignedIn(): void {
    if (!this.required || this.signedInWith || existsSync(this.authFile) || (process.env[API_KEY_VAR] ?? '') !== '') return;
    throw acp.RequestError.authRequired(undefined, 'ElizACP needs you to sign in first');
  }
}

/** The terminal method's run: a tiny login "script" on a real terminal; exit 0 means signed in. */
export async function runTerminalLogin(authFile: string): Promise<number> {
  process.stdout.write('ElizACP sign-in\r\n');
  await new Promise((r) => setTimeout(r, 300));
  mkdirSync(dirname(authFile), { recursive: true });
  writeFileSync(authFile, randomBytes(16).toString('hex'), { mode: 0o600 });
  process.stdout.write('Signed in. This terminal closes by itself.\r\n');
  await new Promise((r) => setTimeout(r, 300));
  return 0;
}
