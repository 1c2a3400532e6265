// A broken OpenCtx provider: meta answers, everything else never does. Only the timeout ends it.
const never = () => new Promise(() => {});
export default { meta: () => ({ name: 'Hanging', mentions: {}, items: {}, annotations: {} }), mentions: never, items: never, annotations: never };
