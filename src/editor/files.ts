// ACP fs/read_text_file and fs/write_text_file through VS Code's workspace API: reads see unsaved
// editor changes and honour line/limit; writes to an open document go through a WorkspaceEdit
// (so undo works) and are saved; other writes create the file and its folders. Every path is
// confined to the session's folders (its cwd and additional directories) plus symposium.allowedFolders. With
// `symposium.reviewAgentEdits` on, a write first shows VS Code's diff view with Accept / Reject
// and the agent gets the outcome.
import * as path from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import { acpRequestError } from '../agents/acpSdk';
import * as vscode from 'vscode';
import type { ClientRequestContext, FileHandlers } from '../agents/clientHandlers';
import { sessionFolders, type SessionInfo } from '../agents/clientHandlers';
import type { Log } from '../log/logEvent';
import { sliceLines } from '../protocol/acpText';
import { confine, OutsideWorkspaceError } from '../node/confinement';
import { readLines } from '../node/textFiles';
import { readRegularFileText } from '../node/containedFile';
import type { EditReview } from './editReview';

/** The largest file whose current text the edit review compares with. */
const CURRENT_TEXT_BYTES = 64 * 1024 * 1024;

const ALLOWED_FOLDERS = {
  hint: "Only the session's workspace folders (its folder and, with symposium.allFoldersInSession, the workspace's other folders the agent was given) and the folders in the symposium.allowedFolders setting are allowed.",
};

export interface EditorFilesDeps {
  log: Log;
  lookupSession(actorKey: string, sessionId: string): SessionInfo | undefined;
  allowedFolders(): string[];
  reviewEnabled(): boolean;
  review: EditReview;
  /** Resolves once the turn's checkpoint of the file's folder is taken (it must hold the file as it was). */
  beforeWrite?(file: string): Promise<void>;
}

export class EditorFiles implements FileHandlers {
  constructor(private readonly deps: EditorFilesDeps) {}

  private resolve(requested: string, sessionId: string, ctx: ClientRequestContext): string {
    const session = this.deps.lookupSession(ctx.actorKey, sessionId);
    if (!session) throw acpRequestError().invalidParams(undefined, `No chat tab has session ${sessionId}.`);
    try {
      return confine(requested, [...sessionFolders(session), ...this.deps.allowedFolders()], ALLOWED_FOLDERS);
    } catch (e) {
      if (e instanceof OutsideWorkspaceError) {
        this.deps.log.warn('files', 'refused a path outside the workspace', { requested, resolved: e.resolved, agent: ctx.agentName });
        throw acpRequestError().invalidParams(undefined, e.message);
      }
      throw e;
    }
  }

  private openDocument(file: string): vscode.TextDocument | undefined {
    return vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === file);
  }

  async readTextFile(params: acp.ReadTextFileRequest, ctx: ClientRequestContext): Promise<acp.ReadTextFileResponse> {
    const file = this.resolve(params.path, params.sessionId, ctx);
    const open = this.openDocument(file);
    let content: string;
    if (open) {
      content = sliceLines(open.getText(), params.line, params.limit); // includes unsaved changes
    } else {
      try {
        // Streamed: line 1 of a huge file reads one chunk, not the whole file.
        content = await readLines(file, params.line, params.limit);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw acpRequestError().resourceNotFound(file);
        throw e;
      }
    }
    this.deps.log.info('files', 'read', { path: file, unsaved: open?.isDirty ?? false, line: params.line, limit: params.limit });
    return { content };
  }

  async writeTextFile(params: acp.WriteTextFileRequest, ctx: ClientRequestContext): Promise<Record<string, never>> {
    const file = this.resolve(params.path, params.sessionId, ctx);
    await this.deps.beforeWrite?.(file);
    const uri = vscode.Uri.file(file);
    if (this.deps.reviewEnabled()) {
      const before = await this.currentText(file);
      const accepted = await this.deps.review.ask({
        path: file,
        oldText: before,
        newText: params.content,
        agentName: ctx.agentName,
        signal: ctx.signal,
      });
      if (!accepted) {
        this.deps.log.info('files', 'write rejected in review', { path: file });
        throw acpRequestError().internalError(undefined, `The user rejected the edit to ${file}.`);
      }
    }
    const open = this.openDocument(file);
    if (open) {
      const edit = new vscode.WorkspaceEdit();
      edit.replace(uri, new vscode.Range(open.positionAt(0), open.positionAt(open.getText().length)), params.content);
      if (!(await vscode.workspace.applyEdit(edit)))
        throw acpRequestError().internalError(undefined, `VS Code could not apply the edit to ${file}.`);
      await open.save();
    } else {
      await vscode.workspace.fs.createDirectory(vscode.Uri.file(path.dirname(file)));
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(params.content));
    }
    this.deps.log.info('files', 'wrote', { path: file, chars: params.content.length, viaEditor: !!open });
    return {};
  }

  private async currentText(file: string): Promise<string | null> {
    const open = this.openDocument(file);
    if (open) return open.getText();
    try {
      // What the review compares with: a regular file, up to the cap (a FIFO or a huge file has none).
      return (await readRegularFileText(file, { maxBytes: CURRENT_TEXT_BYTES })).text;
    } catch {
      return null;
    }
  }
}
