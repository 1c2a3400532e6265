// What mynah-ui is built with, apart from the tabs and the event handlers (chatApp.ts): its
// configuration and the defaults of every new tab.
import type { ConfigModel, MynahUIDataModel } from '@aws/mynah-ui';

/** What every tab starts with. */
export const TAB_DEFAULTS: MynahUIDataModel = {
  tabTitle: 'Chat',
  promptInputPlaceholder: 'Ask the agent… (Enter to send, Shift+Enter for a new line)',
  cancelButtonWhenLoading: true,
  showChatAvatars: false,
};

export function mynahConfig(testMode: boolean): Partial<ConfigModel> {
  return {
    // Tests open many tabs in one window; people rarely want more than 20.
    test: testMode,
    maxTabs: testMode ? 1000 : 20,
    // mynah-ui's defaults name Amazon Q ("Open a tab to chat with Q"): every text a user can see is ours.
    texts: {
      mainTitle: 'Symposium',
      stopGenerating: 'Stop',
      noTabsOpen: '### Open a tab to chat with your agent',
      spinnerText: 'The agent is working…',
      tabCloseConfirmationMessage: 'Close this tab? Its running prompt will be stopped.',
      tabCloseConfirmationCloseButton: 'Close tab',
      tabCloseConfirmationKeepButton: 'Keep tab',
    },
    // Only Copy: inserting into the editor is not wired up (yet).
    codeBlockActions: { 'insert-to-cursor': null },
    // The typewriter adds one CSS rule per new word on every update and the page restyles the
    // whole body against them: a fast stream's large updates took seconds (docs/benchmarks.md).
    // Streaming cards are redrawn every 100 ms or more instead (renderer.ts).
    disableTypewriterAnimation: true,
  };
}
