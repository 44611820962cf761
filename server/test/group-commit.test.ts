import { describe, expect, it } from 'vitest';
import { GroupCommit, type Settled } from '../src/store/group-commit.ts';

/** A commit that records its batches and holds each until released. */
function heldCommit() {
  const batches: number[][] = [];
  const releases: (() => void)[] = [];
  const commit = async (items: readonly number[]): Promise<Settled<number>[]> => {
    batches.push([...items]);
    await new Promise<void>((resolve) => releases.push(resolve));
    return items.map((item) =>
      item < 0 ? { ok: false, error: new Error(`bad ${item}`) } : { ok: true, value: item * 10 },
    );
  };
  return { batches, releases, commit };
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setImmediate(resolve));
}

describe('GroupCommit', () => {
  it('commits the items of one turn together, and those that arrive meanwhile in the next batch', async () => {
    const { batches, releases, commit } = heldCommit();
    const group = new GroupCommit(commit);
    const first = [1, 2, 3].map((item) => group.submit(item));
    await until(() => batches.length === 1);
    const second = [4, 5].map((item) => group.submit(item));
    await new Promise((resolve) => setImmediate(resolve));
    // The first batch is still being committed: the newcomers wait for it.
    expect(batches).toEqual([[1, 2, 3]]);
    releases[0]?.();
    expect(await Promise.all(first)).toEqual([10, 20, 30]);
    await until(() => batches.length === 2);
    expect(batches[1]).toEqual([4, 5]);
    releases[1]?.();
    expect(await Promise.all(second)).toEqual([40, 50]);
  });

  it('fails only the items that failed, and every item when the commit throws', async () => {
    const { releases, commit } = heldCommit();
    const group = new GroupCommit(commit);
    const results = [1, -2, 3].map((item) => group.submit(item));
    await until(() => releases.length === 1);
    releases[0]?.();
    const settled = await Promise.allSettled(results);
    expect(settled.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);

    const broken = new GroupCommit<number, number>(() => Promise.reject(new Error('disk gone')));
    const failed = await Promise.allSettled([broken.submit(1), broken.submit(2)]);
    expect(failed.map((result) => result.status)).toEqual(['rejected', 'rejected']);
  });

  it('keeps batches within their maximum size', async () => {
    const { batches, releases, commit } = heldCommit();
    const group = new GroupCommit(commit, 2);
    const results = [1, 2, 3, 4, 5].map((item) => group.submit(item));
    for (let index = 0; index < 3; index++) {
      await until(() => releases.length > index);
      releases[index]?.();
    }
    expect(await Promise.all(results)).toEqual([10, 20, 30, 40, 50]);
    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
  });
});
