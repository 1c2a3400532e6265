// Progress of one `ide` tool call on its card. Each `_symposium/ide/*` request the call
// sends upstream carries a token (`_meta.symposium.progressToken`); the answerer may send
// `_symposium/ide/progress` with it while the request waits (the ide-lsp adapter: a language
// server starting, or loading / indexing the project, from its `$/progress`), and that text goes
// to the card through the conductor's tool progress (toolProgress.ts: MCP `notifications/progress`
// to the agent, `_symposium/tool_progress` to the editor, throttled). Past `slowMs` the card is kept
// visibly alive once a second with the elapsed time: the answerer's unfinished step ("…: Initializing
// JS/TS language features… 12 s"), else, from an answerer that says nothing (VS Code's language
// features), "Waiting for the editor's language features… N s".
import type { IdeProgressParams } from '../../../src/protocol/ideOperations';
import { ToolProgress, type ProgressTarget } from '../toolProgress';

/** The open tokens of every call of the component, to route `_symposium/ide/progress` to its call. */
export type ProgressTokens = Map<string, IdeCallProgress>;

export class IdeCallProgress {
  private readonly started = Date.now();
  private reporter: ToolProgress | undefined;
  private readonly open = new Set<string>();
  /** The answerer's last step not yet finished, repeated with the elapsed time while the call waits. */
  private ongoing: IdeProgressParams | undefined;
  private timer: NodeJS.Timeout | undefined;
  private finished = false;

  constructor(
    private readonly target: ProgressTarget,
    private readonly tokens: ProgressTokens,
    /** "Waiting for the editor's language features" (the elapsed seconds are added). */
    private readonly waitingText: string,
    private readonly slowMs = 1_000,
  ) {}

  /** A token for one upstream request; `release` it when the request is answered. */
  openRequest(): { token: string; release(): void } {
    const token = crypto.randomUUID();
    this.open.add(token);
    this.tokens.set(token, this);
    if (!this.finished) this.timer ??= setTimeout(() => this.tick(), Math.max(0, this.started + this.slowMs - Date.now()));
    return {
      token,
      release: () => {
        this.open.delete(token);
        this.tokens.delete(token);
        if (this.open.size === 0) this.stopTimer();
      },
    };
  }

  /** What the answerer said about one of this call's requests. */
  upstream(p: IdeProgressParams): void {
    if (this.finished) return;
    this.ongoing = p.finished ? undefined : p;
    this.progress().report(p.message, p.percentage, p.percentage !== undefined ? 100 : undefined);
  }

  /** The call has its result: the last progress is sent, nothing after. */
  finish(): void {
    this.finished = true;
    this.stopTimer();
    for (const token of this.open) this.tokens.delete(token);
    this.open.clear();
    this.reporter?.done();
  }

  private tick(): void {
    this.timer = undefined;
    if (this.finished || this.open.size === 0) return;
    const seconds = Math.round((Date.now() - this.started) / 1000);
    const p = this.ongoing;
    if (p)
      this.progress().report(
        `${p.message.replace(/(\u2026|\.\.\.)$/, '')}… ${seconds} s`,
        p.percentage,
        p.percentage !== undefined ? 100 : undefined,
      );
    else this.progress().report(`${this.waitingText}… ${seconds} s`);
    this.timer = setTimeout(() => this.tick(), 1_000);
  }

  private stopTimer(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private progress(): ToolProgress {
    this.reporter ??= new ToolProgress(this.target);
    return this.reporter;
  }
}
