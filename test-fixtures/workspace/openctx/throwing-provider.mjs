// A broken OpenCtx provider: every method throws. The others must carry on.
const boom = () => {
  throw new Error('the throwing provider throws');
};
export default { meta: () => ({ name: 'Throwing', mentions: {}, items: {}, annotations: {} }), mentions: boom, items: boom, annotations: boom };
