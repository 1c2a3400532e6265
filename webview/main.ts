// Webview entry point (bundled to out/webview.js; the CSS import becomes out/webview.css).
import './theme.css';
import { ChatApp } from './chatApp';

// Passed by the extension as data- attributes: no inline script under our CSP.
const { sessionId = '', testMode = '0', maxImageBytes } = document.body.dataset;
const max = Number(maxImageBytes);
new ChatApp(sessionId, testMode === '1', Number.isSafeInteger(max) && max > 0 ? { maxImageBytes: max } : {}).start();
