// "Symposium: Forget MCP Server Approvals and Inputs": takes back what the user gave for their MCP
// servers — the approval of this workspace's `.vscode/mcp.json` and the answers to `${input:…}`,
// kept in VS Code's secret storage — once the user confirms, having seen what goes. New chats
// ask again; a running session keeps the servers it was given (said in the confirmation).
import * as vscode from 'vscode';
import type { UserMcpServers } from './userMcpServers';

export const FORGET_MCP_COMMAND = 'symposium.forgetMcpServerApprovals';
export const FORGET_ACTION = 'Forget';

const count = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

export function registerForgetMcp(userMcp: UserMcpServers): vscode.Disposable {
  return vscode.commands.registerCommand(FORGET_MCP_COMMAND, async () => {
    const { approvals, inputs } = userMcp.kept();
    if (!approvals && !inputs) {
      void vscode.window.showInformationMessage('Symposium keeps no MCP server approval or input answer.');
      return;
    }
    const lines = [
      ...(approvals ? [`The approval of this workspace's MCP servers (${count(approvals, 'file', 'files')})`] : []),
      ...(inputs ? [`${count(inputs, 'answer', 'answers')} to MCP inputs, kept in VS Code's secret storage (every workspace)`] : []),
    ];
    // A quick pick, as the approval itself was asked: what goes is listed under the choice.
    const forget = { label: `$(trash) ${FORGET_ACTION}`, description: 'new chats ask again; open chats keep their servers' };
    const answer = await vscode.window.showQuickPick(
      [
        forget,
        { label: 'Keep them' },
        { label: 'It forgets', kind: vscode.QuickPickItemKind.Separator },
        ...lines.map((label) => ({ label })),
      ],
      { title: 'Forget what you gave for your MCP servers?', ignoreFocusOut: true },
    );
    if (answer !== forget) return;
    await userMcp.forget();
    void vscode.window.showInformationMessage(`Forgotten: ${lines.join('; ')}. New chats will ask again.`);
  });
}
