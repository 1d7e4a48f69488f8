import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OwnSessionTarget } from '../../src/capture/cdp/own-session-target';
import type { Target, TargetListener } from '../../src/capture/cdp/target';

/** A page target on a fake session: every command is answered at once; `beforeFrameTree` runs just before that answer. */
function page(frameUrl: string, beforeFrameTree?: (target: OwnSessionTarget) => void) {
  const events: Array<{ method: string; params: any }> = [];
  const listener: TargetListener = { onEvent: (_t: Target, method, params) => events.push({ method, params }), onAttached: () => undefined, onDetached: () => undefined };
  let target!: OwnSessionTarget;
  const post = async (text: string) => {
    const { id, method } = JSON.parse(text) as { id: number; method: string };
    await Promise.resolve();
    if (method === 'Page.getFrameTree') {
      beforeFrameTree?.(target);
      target.receive(JSON.stringify({ id, result: { frameTree: { frame: { id: 'F', loaderId: 'L', url: frameUrl } } } }));
    } else target.receive(JSON.stringify({ id, result: {} }));
  };
  target = new OwnSessionTarget('page', frameUrl, 'F', 'C', undefined, post, listener);
  return { target, events };
}

test('a page found after it navigated gets its navigation from its frame tree', async () => {
  const { target, events } = page('http://127.0.0.1/targets/context.html');
  await target.enable(false);
  const navigations = events.filter((e) => e.method === 'Page.frameNavigated');
  assert.equal(navigations.length, 1);
  assert.equal(navigations[0]!.params.frame.url, 'http://127.0.0.1/targets/context.html');
});

test('a navigation the session heard is not replayed again, and about:blank is no navigation', async () => {
  const heard = page('http://127.0.0.1/a.html', (target) => target.receive(JSON.stringify({ method: 'Page.frameNavigated', params: { frame: { id: 'F', loaderId: 'L', url: 'http://127.0.0.1/a.html' } } })));
  await heard.target.enable(false);
  assert.equal(heard.events.filter((e) => e.method === 'Page.frameNavigated').length, 1);

  const blank = page('about:blank');
  await blank.target.enable(false);
  assert.equal(blank.events.filter((e) => e.method === 'Page.frameNavigated').length, 0);
});
