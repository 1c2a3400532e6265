// An agent's terminal sign-in (ACP `type: "terminal"` auth method) in a real VS Code terminal: the
// agent's own program with the method's args and env, on a real pty so a login TUI works, shown to
// the user. Resolves with the exit code once the program has ended (VS Code keeps a terminal whose
// program failed open until a key is pressed, so the exit status is also polled), or undefined if
// the user closed the terminal first.
import * as vscode from 'vscode';
import type { TerminalSignIn } from './signIn';

export function runSignInTerminal(t: TerminalSignIn): Promise<number | undefined> {
  const terminal = vscode.window.createTerminal({
    name: t.title,
    shellPath: t.command,
    shellArgs: t.args,
    env: t.env,
    isTransient: true,
  });
  terminal.show();
  return new Promise((resolve) => {
    const finish = (): void => {
      clearInterval(poll);
      closed.dispose();
      resolve(terminal.exitStatus?.code);
    };
    const closed = vscode.window.onDidCloseTerminal((closedTerminal) => {
      if (closedTerminal === terminal) finish();
    });
    const poll = setInterval(() => {
      if (terminal.exitStatus) {
        finish();
        // A failed login stays readable; a successful one needs no attention.
        if (terminal.exitStatus.code === 0) terminal.dispose();
      }
    }, 250);
  });
}
