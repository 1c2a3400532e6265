// "The chat keeps pace", measured in the real page: code-server's workbench in
// chromium, the chat's webview, ElizACP behind the conductor. Used by the e2e's step (its long-lived
// tab, every earlier step's conversation in it) and by the chat bench of `npm run bench`
// (chat-bench.mjs, a fresh workbench). Timed inside the page: from the Enter keydown on the prompt
// to the reply's first text on screen, and to its last chunk on screen; the yardstick for the
// long reply is the same stream read by a bare ACP client that draws nothing (bareStream.mjs).
import { sleep } from './browser.mjs';
import { inputOf } from './chatPage.mjs';
import { bareStreamMs } from './bareStream.mjs';

/**
 * Sends `stream 2 chunks` 20 times, then `stream 5000 chunks` four times (the first on cold code,
 * recorded apart), into tab `mid` of the chat frame `f`; returns the figures (ui.json's shape).
 */
export async function measureChatPace(page, f, mid) {
  const watchReply = (mid, until) =>
    f.evaluate(
      ({ mid, until }) => {
        const w = /** @type {HTMLElement} */ (document.querySelector(`.mynah-chat-wrapper[mynah-tab-id="${mid}"]`));
        const cards = () =>
          [...w.querySelectorAll('[data-testid="chat-item-answer"], [data-testid="chat-item-answer-stream"]')].filter(
            (e) => !e.parentElement?.closest('[data-testid^="chat-item-answer"]'),
          );
        const before = cards().length;
        const longTasks = [];
        const perf = new PerformanceObserver((list) => list.getEntries().forEach((e) => longTasks.push(e.duration)));
        perf.observe({ type: 'longtask' });
        // When the host's messages arrive: the stream as the webview receives it, to compare
        // the time the reply is fully on screen with.
        let firstMessage = 0;
        let lastMessage = 0;
        let messages = 0;
        const onMessage = () => {
          lastMessage = performance.now();
          if (!messages++) firstMessage = lastMessage;
        };
        window.addEventListener('message', onMessage);
        window.__reply = new Promise((resolve) => {
          let t0 = 0;
          let first = 0;
          const input = /** @type {HTMLElement} */ (w.querySelector('[data-testid="prompt-input-textarea"]'));
          const onKey = (e) => {
            if (e.key !== 'Enter') return;
            t0 = performance.now();
            input.removeEventListener('keydown', onKey, true);
          };
          input.addEventListener('keydown', onKey, true);
          const check = () => {
            const list = cards();
            const last = list.length > before ? (list[list.length - 1]?.textContent ?? '') : '';
            window.__seen = { before, now: list.length, last: last.replace(/\s+/g, ' ').slice(-300), ms: performance.now() - t0 };
            if (t0 && !first && /chunk/.test(last)) first = performance.now();
            if (last.includes(until)) {
              observer.disconnect();
              perf.disconnect();
              window.removeEventListener('message', onMessage);
              resolve({
                firstMs: first - t0,
                doneMs: performance.now() - t0,
                firstReceivedMs: firstMessage - t0,
                streamMs: lastMessage - t0,
                longTasks,
                messages,
              });
            }
          };
          const observer = new MutationObserver(check);
          observer.observe(w, { subtree: true, childList: true, characterData: true });
        });
      },
      { mid, until },
    );
  const ask = async (text, until, timeoutMs = 60_000) => {
    await watchReply(mid, until);
    await inputOf(f, mid).click();
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
    const timeout = sleep(timeoutMs).then(async () => {
      const seen = await f.evaluate(() => window.__seen);
      throw new Error(`no reply with ${JSON.stringify(until)} after ${timeoutMs / 1000} s; last card: ${JSON.stringify(seen)}`);
    });
    return Promise.race([f.evaluate(() => window.__reply), timeout]);
  };
  const first = [];
  for (let i = 0; i < 20; i++) first.push((await ask('stream 2 chunks', 'chunk 2')).firstMs);
  // Heap retained (after a full collection: chromium runs with --expose-gc), and the heap
  // right after the reply, garbage included.
  const heap = (collect) =>
    f.evaluate((collect) => {
      if (collect) window.gc?.();
      return performance.memory?.usedJSHeapSize ?? 0;
    }, collect);
  const heapBefore = await heap(true);
  const coldReply = await ask('stream 5000 chunks', 'chunk 5000', 300_000);
  const heapAfter = await heap(false);
  const heapRetained = await heap(true);
  // Measured as the bare stream below is: the median of three warm runs. The first reply runs
  // on cold code (the extension host's, the conductor's, the page's JIT) and is recorded apart.
  const replies = [coldReply];
  for (let i = 0; i < 3; i++) replies.push(await ask('stream 5000 chunks', 'chunk 5000', 300_000));
  const big = replies.slice(1).sort((a, b) => a.doneMs - b.doneMs)[1];
  const longTasks = replies.flatMap((r) => r.longTasks);
  // The stream's own duration: the same reply through the same conductor chain in front of
  // ElizACP, on the extension host's Node, read by a bare ACP client that draws nothing.
  const bare = await bareStreamMs('stream 5000 chunks', 5000);
  const mb = (bytes) => Math.round((bytes / 1024 / 1024) * 10) / 10;
  const sorted = [...first].sort((a, b) => a - b);
  const ui = {
    firstChunkMs: { median: sorted[Math.floor(sorted.length / 2)], max: sorted.at(-1), samples: first.map((x) => Math.round(x)) },
    reply5000: {
      firstMs: Math.round(big.firstMs),
      // Enter → the host's first message after it (the turn's start) reached the webview: code-server's round trip.
      firstReceivedMs: Math.round(big.firstReceivedMs),
      renderedMs: Math.round(big.doneMs),
      // Enter → the host's last message for the reply reached the webview.
      receivedMs: Math.round(big.streamMs),
      renderedPerReceived: Math.round((big.doneMs / big.streamMs) * 100) / 100,
      // Enter → last chunk on screen against a bare client's prompt → last chunk: each the median of three warm runs.
      bareStreamMs: Math.round(bare),
      renderedPerStream: Math.round((big.doneMs / bare) * 100) / 100,
      // The first of the four replies, on cold code: Enter → last chunk on screen.
      coldRenderedMs: Math.round(coldReply.doneMs),
      coldRenderedPerStream: Math.round((coldReply.doneMs / bare) * 100) / 100,
      allRenderedMs: replies.map((r) => Math.round(r.doneMs)),
      // Messages the webview received meanwhile (the host sends chunks that arrive together as one).
      hostMessages: big.messages,
      // Over all four replies.
      longTasks: longTasks.length,
      longestTaskMs: Math.round(Math.max(0, ...longTasks)),
      // Around the first reply.
      heapGrowthMb: mb(heapAfter - heapBefore),
      heapRetainedMb: mb(heapRetained - heapBefore),
    },
  };
  return ui;
}
