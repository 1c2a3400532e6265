// A sample OpenCtx provider (the current protocol's meta shape), used by the tests and by
// `npm start`: a few team documents to @-mention, and annotations on TypeScript lines that call
// or define `greet`. Archived documents are not listed for the empty query, only found by a search
// (as a real provider lists recent things and searches the rest): the `@` menu must show a typed
// query's answers. No network, no state.
const DOCS = [
  {
    title: 'Greeting guide',
    uri: 'https://docs.example/greeting-guide',
    description: 'How we greet users',
    content: 'Greet users by name. Never shout a greeting; shout() is for errors only.',
  },
  {
    title: 'Release checklist',
    uri: 'https://docs.example/release-checklist',
    description: 'Steps before tagging',
    content: 'Run npm test. Update the changelog. Tag the release.',
  },
  {
    title: 'Style rules',
    uri: 'https://docs.example/style-rules',
    description: 'Naming and comments',
    content: 'Names say what a thing is. Comments explain why.',
  },
  {
    title: 'Incident review: search outage',
    uri: 'https://docs.example/incident-review',
    description: 'Archived: why search was down',
    content: 'The search index filled the disk. We now alert at 80% disk use.',
    archived: true,
  },
];

export default {
  meta() {
    return {
      name: 'Sample docs',
      mentions: { label: 'Sample docs' },
      items: {},
      annotations: { selectors: [{ path: '**/*.ts', contentContains: 'greet' }] },
    };
  },

  mentions(params) {
    const q = (params.query ?? '').toLowerCase();
    return DOCS.filter((d) => (q !== '' || !d.archived) && d.title.toLowerCase().includes(q)).map(({ title, uri, description }) => ({
      title,
      uri,
      description,
      data: { slug: uri.split('/').pop() },
    }));
  },

  items(params, settings) {
    const prefix = typeof settings.prefix === 'string' ? settings.prefix : '';
    const docs = params.mention
      ? DOCS.filter((d) => d.uri === params.mention.uri)
      : DOCS.filter((d) => (params.message ?? '').toLowerCase().includes(d.title.split(' ')[0].toLowerCase()));
    return docs.map((d) => ({ title: d.title, url: d.uri, ui: { hover: { text: d.description } }, ai: { content: `${prefix}${d.content}` } }));
  },

  annotations(params) {
    const lines = params.content.split('\n');
    const out = [];
    for (const [line, text] of lines.entries()) {
      const character = text.indexOf('greet');
      if (character < 0) continue;
      out.push({
        uri: params.uri,
        range: { start: { line, character }, end: { line, character: character + 'greet'.length } },
        item: {
          title: '📘 Greeting guide',
          url: 'https://docs.example/greeting-guide',
          ui: { hover: { markdown: '**Greeting guide**: greet users by name.' } },
        },
      });
    }
    return out;
  },
};
