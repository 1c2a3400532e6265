// The `@` menu (mynah-ui context commands) built from what the host says can be attached: files,
// open editors, folders, symbols of open editors, the current selection, and one entry per OpenCtx
// provider with its mentions. Each leaf's id is a
// stable key, so the chosen items can be found again when the prompt is sent. Pure.
import type { MynahIconsType, QuickActionCommand, QuickActionCommandGroup } from '@aws/mynah-ui';
import type { ContextRef } from '../../src/protocol/webview';

export const contextKey = (r: ContextRef): string =>
  r.kind === 'openctx'
    ? `openctx:${r.provider ?? ''} ${r.uri}`
    : `${r.kind}:${r.uri}${r.range ? `#${r.range.startLine}-${r.range.endLine}` : ''}`;

const ICON: Record<ContextRef['kind'], MynahIconsType> = {
  file: 'file',
  folder: 'folder',
  symbol: 'code-block',
  selection: 'text-select',
  image: 'image',
  openctx: 'globe',
};
const LIMIT = 500;

function leaf(r: ContextRef): QuickActionCommand {
  if (r.kind === 'openctx') return { command: r.name, id: contextKey(r), icon: ICON.openctx, description: r.description ?? r.uri };
  const where = decodeURIComponent(r.uri.replace(/^file:\/\//, ''));
  return { command: r.name, id: contextKey(r), icon: ICON[r.kind], description: r.range ? `${where}:${r.range.startLine}` : where };
}

export function contextCommandsFor(items: ContextRef[] | undefined): QuickActionCommandGroup[] {
  if (!items?.length) return [];
  const of = (kind: ContextRef['kind'], open?: boolean): ContextRef[] =>
    items.filter((i) => i.kind === kind && (open === undefined || (i.open === true) === open)).slice(0, LIMIT);
  const entry = (command: string, icon: MynahIconsType, description: string, refs: ContextRef[]): QuickActionCommand[] =>
    refs.length ? [{ command, icon, description, children: [{ groupName: description, commands: refs.map(leaf) }] }] : [];
  const selection = of('selection')[0];
  return [
    {
      groupName: 'Attach from the workspace',
      commands: [
        ...(selection ? [{ ...leaf(selection), command: 'selection', description: selection.name }] : []),
        ...entry('open editors', 'file', 'Files open in editors', of('file', true)),
        ...entry('file', 'file', 'Workspace files', of('file')),
        ...entry('folder', 'folder', 'Workspace folders', of('folder')),
        ...entry('symbol', 'code-block', 'Symbols in open editors', of('symbol')),
        ...entry('image', 'image', 'Images in the workspace', of('image')),
      ],
    },
    ...openCtxGroup(items),
  ];
}

/** One entry per OpenCtx provider (named as it names itself), its mentions as children. */
function openCtxGroup(items: ContextRef[]): QuickActionCommandGroup[] {
  const byProvider = new Map<string, ContextRef[]>();
  for (const i of items)
    if (i.kind === 'openctx')
      byProvider.set(i.providerName ?? i.provider ?? '', [...(byProvider.get(i.providerName ?? i.provider ?? '') ?? []), i]);
  if (byProvider.size === 0) return [];
  const commands = [...byProvider].map(([name, refs]): QuickActionCommand => ({
    command: name,
    icon: ICON.openctx,
    description: `OpenCtx: ${refs.length} mention${refs.length === 1 ? '' : 's'}`,
    children: [{ groupName: name, commands: refs.slice(0, LIMIT).map(leaf) }],
  }));
  return [{ groupName: 'Attach from OpenCtx providers', commands }];
}

/** The refs behind what mynah reports as chosen (command objects or plain strings). */
export function chosenContext(items: ContextRef[] | undefined, chosen: (string | QuickActionCommand)[] | undefined): ContextRef[] {
  if (!items || !chosen) return [];
  const byKey = new Map(items.map((i) => [contextKey(i), i]));
  const refs = chosen.flatMap((c) => {
    const id = typeof c === 'string' ? c : (c.id ?? '');
    const ref = byKey.get(id);
    return ref ? [ref] : [];
  });
  return refs.filter((r, i) => refs.findIndex((x) => contextKey(x) === contextKey(r)) === i);
}
