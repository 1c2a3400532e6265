// ACP terminals (terminal/create, output, wait_for_exit, kill, release) run by the editor for the
// agent. The process, output and session bookkeeping live in terminalRegistry.ts/terminalProcess.ts
// (vscode-free); here each command also gets a VS Code terminal (a Pseudoterminal) mirroring its
// output, created without taking focus. Closing that terminal kills the command; Ctrl+C in it
// interrupts the command's process group. Released terminals are disposed.
import * as vscode from 'vscode';
import { DisposableBase } from '../node/disposable';
import { TerminalRegistry, type TerminalRegistryDeps, type TerminalTuning } from './terminalRegistry';
import type { ExitStatus, TerminalMirror, MirrorInfo } from './terminalProcess';

/** Text queued before VS Code opened the pty (writes before `open` are dropped). */
const MAX_PENDING_CHARS = 1024 * 1024;
const NAME_CHARS = 60;

const dim = (s: string): string => `\x1b[2m${s}\x1b[0m`;
const crlf = (s: string): string => s.replace(/\r?\n/g, '\r\n');

function terminalName(commandLine: string): string {
  return `Symposium: ${commandLine.length > NAME_CHARS ? `${commandLine.slice(0, NAME_CHARS - 1)}…` : commandLine}`;
}

function describeExit(s: ExitStatus): string {
  return s.exitCode !== null ? `Process exited with code ${s.exitCode}` : `Process was killed by ${s.signal ?? 'a signal'}`;
}

/** A command mirrored in a VS Code terminal (a Pseudoterminal). */
class PseudoterminalMirror extends DisposableBase implements TerminalMirror {
  private readonly writes = this.register(new vscode.EventEmitter<string>());
  private readonly terminal: vscode.Terminal;
  private opened = false;
  private pending = '';

  constructor(info: MirrorInfo) {
    super();
    const pty: vscode.Pseudoterminal = {
      onDidWrite: this.writes.event,
      open: () => {
        this.opened = true;
        if (this.pending) this.writes.fire(this.pending);
        this.pending = '';
      },
      // Also called when we dispose the terminal; only the user's close kills the command.
      close: () => this.closedByUser(info),
      handleInput: (data) => {
        if (data.includes('\x03')) info.onInterrupt();
      },
    };
    this.terminal = vscode.window.createTerminal({
      name: terminalName(info.commandLine),
      pty,
      iconPath: new vscode.ThemeIcon('terminal'),
      isTransient: true,
    });
    // A terminal never opened (its panel not shown yet) gets no pty.close() when it goes away.
    this.register(
      vscode.window.onDidCloseTerminal((t) => {
        if (t === this.terminal) this.closedByUser(info);
      }),
    );
    this.emit(dim(`${info.cwd}$ ${info.commandLine}`) + '\r\n');
  }

  private closedByUser(info: MirrorInfo): void {
    if (this.isDisposed) return;
    // The user closed it: the terminal is gone already, only our listeners go.
    super.dispose();
    info.onUserClose();
  }

  private emit(data: string): void {
    if (this.isDisposed) return;
    if (this.opened) {
      this.writes.fire(data);
      return;
    }
    this.pending += data;
    if (this.pending.length > MAX_PENDING_CHARS) this.pending = this.pending.slice(this.pending.length - MAX_PENDING_CHARS);
  }

  write(text: string): void {
    this.emit(crlf(text));
  }

  exited(status: ExitStatus): void {
    this.emit(`\r\n${dim(`[${describeExit(status)}]`)}\r\n`);
  }

  override dispose(): void {
    if (this.isDisposed) return;
    super.dispose();
    this.terminal.dispose();
  }
}

/** The ACP terminal handlers for the agents, each command mirrored in a VS Code terminal. */
export function createEditorTerminals(deps: TerminalRegistryDeps, tuning?: TerminalTuning): TerminalRegistry {
  return new TerminalRegistry(deps, (info) => new PseudoterminalMirror(info), tuning);
}
