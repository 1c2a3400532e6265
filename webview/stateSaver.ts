// When the chat webview saves its state (vscode.setState) and tells the host what it saved. Host
// messages come in bursts (a streamed answer): one save per burst, 50 ms after its start, or later
// when saves have become costly (SpacedByCost: at most 1/20 of the page's time, 1 s apart at most).
// Typing: one save once the keys pause, not one per keystroke (a save copies every tab). Hiding the
// page saves at once. After each save the host learns the indices saved (`ack`), so it can forget
// those messages. DOM-free.
import { DelayedCall, SpacedByCost, type Timers } from './delayedCall';
import type { Host } from './host';
import type { PersistedState } from './state';

const SAVE_SPACING = { minMs: 50, maxMs: 1000, factor: 20 };
const DRAFT_SAVE_DELAY_MS = 300;

export class StateSaver {
  private readonly spacing = new SpacedByCost(SAVE_SPACING);
  private readonly afterBurst: DelayedCall;
  private readonly afterTyping: DelayedCall;
  private lastAck = '';

  constructor(
    private readonly host: Host,
    /** A consistent snapshot: tabs, conversations and lastSeenIndex of the same moment. */
    private readonly snapshot: () => PersistedState,
    timers: Timers,
  ) {
    this.afterBurst = new DelayedCall(
      () => this.now(),
      () => this.spacing.ms,
      false,
      timers,
    );
    this.afterTyping = new DelayedCall(() => this.now(), DRAFT_SAVE_DELAY_MS, true, timers);
  }

  /** Something changed (a host message, a tab): saved once the burst is over. */
  soon(): void {
    this.afterBurst.schedule();
  }

  /** The prompt's draft changed: saved once typing pauses. */
  draftChanged(): void {
    this.afterTyping.schedule();
  }

  /** The prompt lost focus: a pending draft save happens now. */
  flushDraft(): void {
    this.afterTyping.flush();
  }

  cancel(): void {
    this.afterBurst.cancel();
    this.afterTyping.cancel();
  }

  now(): void {
    this.cancel();
    const started = performance.now();
    const state = this.snapshot();
    try {
      // A copy, and plain data: round-trip through JSON so nothing uncloneable slips in.
      this.host.setState(JSON.parse(JSON.stringify(state)));
      this.spacing.record(performance.now() - started);
    } catch (e) {
      this.host.log('error', `webview: could not save state: ${String(e)}`);
      return;
    }
    const ack = JSON.stringify(state.lastSeenIndex);
    if (ack !== this.lastAck) {
      this.lastAck = ack;
      this.host.post({ type: 'ack', lastSeenIndex: state.lastSeenIndex });
    }
  }
}
