// A second extension, written as any vscode.lm consumer is: it knows nothing of Symposium beyond
// the vendor name. It registers three tools of its own and runs the usual tool-calling loop:
// send the conversation with the tools, invoke every tool call the model makes through
// vscode.lm.invokeTool, send the results back (in the order given by `resultOrder`), repeat until
// the model answers without tool calls. Plain JavaScript, so it loads without a build step.
const vscode = require('vscode');

const TOOL_NAMES = ['consumer_alpha', 'consumer_beta', 'consumer_gamma'];

/** @param {vscode.ExtensionContext} context */
function activate(context) {
  for (const name of TOOL_NAMES)
    context.subscriptions.push(
      vscode.lm.registerTool(name, {
        invoke(options) {
          return new vscode.LanguageModelToolResult([
            new vscode.LanguageModelTextPart(`${name} ran with ${JSON.stringify(options.input)}`),
          ]);
        },
      }),
    );
  context.subscriptions.push(vscode.commands.registerCommand('symposiumLmConsumer.converse', converse));
}

/**
 * @param {{ vendor: string, modelIdIncludes: string, prompts: string[], resultOrder?: 'as-called' | 'reversed' }} args
 * @returns {Promise<{ model: string, rounds: { text: string, calls: { name: string, input: unknown }[] }[] }>}
 */
async function converse(args) {
  const [model] = (await vscode.lm.selectChatModels({ vendor: args.vendor })).filter((m) => m.id.includes(args.modelIdIncludes));
  if (!model) throw new Error(`no ${args.vendor} model with "${args.modelIdIncludes}" in its id`);
  const tools = vscode.lm.tools.filter((t) => TOOL_NAMES.includes(t.name));
  const messages = [];
  const rounds = [];
  for (const prompt of args.prompts) {
    messages.push(vscode.LanguageModelChatMessage.User(prompt));
    for (let guard = 0; guard < 10; guard++) {
      const response = await model.sendRequest(messages, { tools, justification: 'test consumer' });
      const parts = [];
      for await (const part of response.stream)
        if (part instanceof vscode.LanguageModelTextPart || part instanceof vscode.LanguageModelToolCallPart) parts.push(part);
      const calls = parts.filter((p) => p instanceof vscode.LanguageModelToolCallPart);
      rounds.push({
        text: parts.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join(''),
        calls: calls.map((c) => ({ name: c.name, input: c.input })),
      });
      messages.push(vscode.LanguageModelChatMessage.Assistant(parts));
      if (calls.length === 0) break;
      const results = [];
      for (const call of calls) {
        const result = await vscode.lm.invokeTool(call.name, { input: call.input, toolInvocationToken: undefined });
        results.push(new vscode.LanguageModelToolResultPart(call.callId, result.content));
      }
      if (args.resultOrder === 'reversed') results.reverse();
      messages.push(vscode.LanguageModelChatMessage.User(results));
    }
  }
  return { model: model.id, rounds };
}

function deactivate() {}

module.exports = { activate, deactivate };
