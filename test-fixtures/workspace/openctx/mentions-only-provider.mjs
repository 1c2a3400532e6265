// An OpenCtx provider whose meta declares mentions but not items, as many in the wild do: the
// reference client (@openctx/client) still asks it for the items of its own mentions, and it
// answers them. A message alone (no mention) gets nothing from it.
const LINKS = [{ title: 'Runbook: deploys', uri: 'https://links.example/runbook-deploys', content: 'Deploy from main, never on Fridays.' }];

export default {
  meta() {
    return { name: 'Links', mentions: { label: 'Links' } };
  },
  mentions(params) {
    const q = (params.query ?? '').toLowerCase();
    return LINKS.filter((l) => l.title.toLowerCase().includes(q)).map((l) => ({ title: l.title, uri: l.uri }));
  },
  items(params) {
    const link = LINKS.find((l) => l.uri === params.mention?.uri);
    return link ? [{ title: link.title, url: link.uri, ai: { content: link.content } }] : [];
  },
};
