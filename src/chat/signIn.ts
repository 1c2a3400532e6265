// Agent sign-in for chat tabs. When a tab's session cannot start (or a prompt fails) because the
// agent wants the user signed in (ACP auth-required, -32000; or an auth-sounding error from an
// agent that offers auth methods, as some return -32603), the tab gets a card with the agent's
// `authMethods`. Agent-handled methods call `authenticate {methodId}` and then start the session
// again; terminal methods run the agent's own command line with the method's args and env in an
// editor terminal, and once it exits 0 the agent process is restarted (a fresh process reads the
// new credentials) and the tab's session started again. Env-var methods only say what to set.
// An agent whose `initialize` lists methods without requiring them gets an optional card once per
// process (the first tab whose session starts on it): it blocks nothing, ends when signed in or
// dismissed ("Not now"), and is not offered again for that agent in this window once answered.
// Nothing here logs an env value: only names. vscode-free (the terminal runs through `runInTerminal`).
import { randomUUID } from 'node:crypto';
import type { Log } from '../log/logEvent';
import type { AgentDefinition } from '../settings/agentDefinition';
import { ErrorCodes } from '../protocol/errorCodes';
import { signInMethods, type SignInChoice, type SignInDismiss, type SignInMethod, type SignInUpdate } from '../protocol/signIn';
import type { TabId, TabPayload } from '../protocol/webview';

/** The actor as sign-in needs it. */
export interface SignInAgent {
  readonly authMethods: readonly unknown[];
  authenticate(methodId: string): Promise<void>;
}

/** A terminal sign-in: what runs in the editor's terminal. */
export interface TerminalSignIn {
  title: string;
  command: string;
  args: string[];
  env: Record<string, string>;
}

export interface SignInDeps {
  log: Log;
  send: (p: TabPayload) => void;
  /** Runs a terminal sign-in and resolves with its exit code (undefined: unknown). Absent: not offered. */
  runInTerminal?: (t: TerminalSignIn) => Promise<number | undefined>;
  /** After signing in: start the tab's session again, or restart its agent process first. */
  retry: (tabId: TabId, how: 'session' | 'restart') => void;
}

interface Pending {
  tabId: TabId;
  agent: SignInAgent;
  definition: AgentDefinition;
  /** The raw ACP methods (the terminal ones carry args and env). */
  raw: readonly unknown[];
  methods: SignInMethod[];
  busy: boolean;
  /** Offered while the session works: signing in needs no new session. */
  optional: boolean;
}

const AUTH_WORDS = /\b(auth\w*|sign(ed)?[ -]?in|log(ged)?[ -]?in|credentials?|api[ _-]?key|unauthori[sz]ed)\b/i;

/** Whether an error means "sign in first". */
export function isAuthRequired(e: unknown, agent: SignInAgent | undefined): boolean {
  const { code, message } = (e ?? {}) as { code?: unknown; message?: unknown };
  if (code === ErrorCodes.authRequired) return true;
  return (agent?.authMethods.length ?? 0) > 0 && typeof message === 'string' && AUTH_WORDS.test(message);
}

/**
 * What to do when an agent wants the user signed in but offers no method the editor can run
 * (claude-agent-acp lists none): its error alone ("Authentication required") leaves the user stuck.
 */
export function noSignInMethodText(agentName: string): string {
  return `${agentName} wants you to sign in and offers no way to do it from the editor: sign in with its own command line in a terminal, or give it an API key in the \`env\` of its entry in \`symposium.agents\`; then run Symposium: Restart Agent.`;
}

export class SignInFlow {
  private readonly pending = new Map<string, Pending>();
  /** Agent processes whose methods were offered on start already (once per process). */
  private readonly offeredOnStart = new WeakSet<SignInAgent>();
  /** Agents (by name) whose optional card the user answered: signed in, or "Not now". */
  private readonly answered = new Set<string>();

  constructor(private readonly deps: SignInDeps) {}

  /**
   * Shows the sign-in card in the tab, replacing an earlier one. Returns false when the agent
   * offers no usable method (the caller then reports the error as any other).
   */
  offer(tabId: TabId, agent: SignInAgent, definition: AgentDefinition, error: unknown, optional = false): boolean {
    const methods = signInMethods(agent.authMethods, `symposium.agents.${definition.name}.env`).filter(
      (m) => m.kind !== 'terminal' || this.deps.runInTerminal,
    );
    if (methods.length === 0) return false;
    this.close(tabId, optional ? 'See the newer card.' : 'Still not signed in: see the newer card.');
    const requestId = randomUUID();
    this.pending.set(requestId, { tabId, agent, definition, raw: agent.authMethods, methods, busy: false, optional });
    const message = error instanceof Error ? error.message : String((error as { message?: unknown } | null)?.message ?? error);
    this.deps.log.info('auth', 'sign-in required', { tabId, agent: definition.name, methods: methods.map((m) => `${m.kind}:${m.id}`) });
    this.deps.send({
      type: 'sign-in-required',
      tabId,
      requestId,
      agentName: definition.name,
      message,
      methods,
      ...(optional ? { optional: true as const } : {}),
    });
    return true;
  }

  /**
   * The tab's session started (on `agent`): a card that waited for it is done. An optional card
   * stays, unless it was for an earlier process of the agent (a restart): then it closes.
   */
  sessionStarted(tabId: TabId, agent?: SignInAgent): void {
    for (const [requestId, p] of this.pending) {
      if (p.tabId !== tabId) continue;
      if (p.optional && (agent === undefined || p.agent === agent)) continue;
      this.pending.delete(requestId);
      // An optional card still open here after its terminal sign-in worked: that restart was ours.
      if (p.optional && this.answered.has(p.definition.name)) this.update(p, requestId, 'signed-in', `Signed in to ${p.definition.name}.`);
      else if (p.optional) this.update(p, requestId, 'closed', `${p.definition.name} restarted.`);
      else this.update(p, requestId, 'signed-in', `Signed in to ${p.definition.name}.`);
    }
  }

  /**
   * A session started on `agent`: if its `initialize` listed sign-in methods (it did not require
   * them, or the session would not have started), offer them once for this process, as an optional
   * card in that tab. Not after the user answered such a card for this agent (signed in, Not now).
   */
  offerOnStart(tabId: TabId, agent: SignInAgent, definition: AgentDefinition): boolean {
    if (agent.authMethods.length === 0 || this.offeredOnStart.has(agent) || this.answered.has(definition.name)) return false;
    this.offeredOnStart.add(agent);
    return this.offer(tabId, agent, definition, 'Optional: the chat works without it.', true);
  }

  /** Whether the tab shows a required sign-in card (its session waits for it). */
  waitingFor(tabId: TabId): boolean {
    return [...this.pending.values()].some((p) => p.tabId === tabId && !p.optional);
  }

  /** "Not now" on an optional card. */
  dismiss(m: SignInDismiss): void {
    const p = this.pending.get(m.requestId);
    if (!p || p.tabId !== m.tabId || !p.optional || p.busy) {
      this.deps.log.warn('auth', 'dismissal of no open optional card; ignored', { tabId: m.tabId });
      return;
    }
    this.pending.delete(m.requestId);
    this.answered.add(p.definition.name);
    this.deps.log.info('auth', 'sign-in dismissed', { tabId: p.tabId, agent: p.definition.name });
    this.update(p, m.requestId, 'closed', 'Not now. Sign In to the Agent… offers it again.');
  }

  /** The tab closed: forget its cards. */
  forgetTab(tabId: TabId): void {
    for (const [requestId, p] of this.pending) if (p.tabId === tabId) this.pending.delete(requestId);
  }

  /** The user pressed a method's button. */
  async choose(m: SignInChoice): Promise<void> {
    const p = this.pending.get(m.requestId);
    const method = p?.methods.find((x) => x.id === m.methodId);
    if (!p || p.tabId !== m.tabId || !method || method.kind === 'env_var') {
      this.deps.log.warn('auth', 'sign-in choice for no open card or method; ignored', { tabId: m.tabId, methodId: m.methodId });
      return;
    }
    if (p.busy) return;
    p.busy = true;
    this.deps.log.info('auth', 'signing in', { tabId: p.tabId, agent: p.definition.name, method: `${method.kind}:${method.id}` });
    try {
      if (method.kind === 'agent') {
        this.update(p, m.requestId, 'working', `Signing in with “${method.name}”…`);
        await p.agent.authenticate(method.id);
        if (p.optional) {
          // The session works already: nothing to start again.
          this.pending.delete(m.requestId);
          this.answered.add(p.definition.name);
          this.update(p, m.requestId, 'signed-in', `Signed in to ${p.definition.name}.`);
          return;
        }
        this.update(p, m.requestId, 'working', 'Signed in; starting the session…');
        this.deps.retry(p.tabId, 'session');
      } else {
        const code = await this.runTerminal(p, m.requestId, method);
        if (code !== 0) {
          const how = code === undefined ? 'without an exit code' : `with exit code ${code}`;
          this.update(p, m.requestId, 'failed', `The sign-in terminal ended ${how}. Try again, or another method.`);
          return;
        }
        if (p.optional) this.answered.add(p.definition.name);
        this.update(p, m.requestId, 'working', `Signed in from the terminal; restarting ${p.definition.name}…`);
        this.deps.retry(p.tabId, 'restart');
      }
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      this.deps.log.warn('auth', 'sign-in failed', { tabId: p.tabId, agent: p.definition.name, reason });
      this.update(p, m.requestId, 'failed', `Sign-in failed: ${reason}`);
    } finally {
      p.busy = false;
    }
  }

  private async runTerminal(p: Pending, requestId: string, method: SignInMethod): Promise<number | undefined> {
    const raw = p.raw.find((x) => (x as { id?: unknown } | null)?.id === method.id) as { args?: unknown; env?: unknown } | undefined;
    const args = Array.isArray(raw?.args) ? raw.args.filter((a): a is string => typeof a === 'string') : [];
    const env: Record<string, string> = {};
    if (raw?.env && typeof raw.env === 'object') for (const [k, v] of Object.entries(raw.env)) if (typeof v === 'string') env[k] = v;
    this.update(p, requestId, 'working', `Finish signing in in the terminal “Sign in: ${p.definition.name}”.`);
    // The agent's own command line, as configured, plus the method's args; its env plus the method's.
    const run: TerminalSignIn = {
      title: `Sign in: ${p.definition.name}`,
      command: p.definition.command,
      args: [...p.definition.args, ...args],
      env: { ...p.definition.env, ...env },
    };
    this.deps.log.info('auth', 'terminal sign-in', { command: run.command, args: run.args, env: Object.keys(run.env) });
    const code = await this.deps.runInTerminal!(run);
    this.deps.log.info('auth', 'terminal sign-in ended', { exitCode: code ?? null });
    return code;
  }

  private close(tabId: TabId, text: string): void {
    for (const [requestId, p] of this.pending)
      if (p.tabId === tabId) {
        this.pending.delete(requestId);
        this.update(p, requestId, 'closed', text);
      }
  }

  private update(p: Pending, requestId: string, state: SignInUpdate['state'], text: string): void {
    this.deps.send({ type: 'sign-in-update', tabId: p.tabId, requestId, state, text });
  }
}
