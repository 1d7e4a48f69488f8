import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LruCache } from '../../src/stack/lru';

describe('LruCache', () => {
  it('evicts the least recently used entry past the entry limit', () => {
    const cache = new LruCache<number>(2, 1000);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.get('a');
    cache.set('c', 3);
    assert.equal(cache.get('b'), undefined);
    assert.equal(cache.get('a'), 1);
    assert.equal(cache.get('c'), 3);
  });

  it('evicts by size, including sizes learned later', () => {
    const cache = new LruCache<string>(10, 100);
    cache.set('a', 'A', 60);
    cache.set('b', 'B');
    cache.resize('b', 'B', 60);
    assert.equal(cache.get('a'), undefined);
    assert.equal(cache.bytes, 60);
    cache.set('huge', 'H', 500);
    assert.equal(cache.get('huge'), undefined, 'an entry larger than the budget is not kept');
    assert.equal(cache.bytes, 0);
  });

  it('resizes and deletes only the value it was given', () => {
    const cache = new LruCache<string>(10, 100);
    cache.set('a', 'old');
    cache.set('a', 'new', 10);
    cache.resize('a', 'old', 90);
    cache.delete('a', 'old');
    assert.equal(cache.get('a'), 'new');
    assert.equal(cache.bytes, 10);
    cache.delete('a', 'new');
    assert.equal(cache.size, 0);
  });
});
