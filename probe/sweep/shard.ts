// Sharding a sweep across CI jobs and merging the shards back, such that the merge is byte-identical to
// the unsharded run.
import { InputError } from '../core/errors.ts';
import { releaseKey } from '../core/release.ts';
import { changePoints, summarize, type SweepResult } from './model.ts';

export interface Shard {
  readonly index: number;
  readonly count: number;
}

export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count) {
    throw new InputError(`--shard ${text}: expected i/n with 1 <= i <= n, e.g. 1/2`);
  }
  return { index, count };
}

/** Round-robin over the planned releases, so old and new releases (and both lines) spread evenly. */
export function selectShard<T>(items: readonly T[], shard: Shard | undefined): T[] {
  return shard ? items.filter((_, i) => i % shard.count === shard.index - 1) : [...items];
}

export function mergeShards(parts: readonly { path: string; result: SweepResult }[]): SweepResult {
  const [first] = parts;
  if (!first) throw new InputError('merge needs at least one shard file');
  const count = first.result.shard?.count;
  const seen = new Map<number, string>();
  for (const { path, result } of parts) {
    if (!result.shard) throw new InputError(`${path}: not a shard (it has no shard field); only --shard outputs merge`);
    if (result.shard.count !== count) throw new InputError(`${path}: shard ${result.shard.index}/${result.shard.count} is from a split into ${result.shard.count}, not ${count}`);
    if (JSON.stringify(result.plan) !== JSON.stringify(first.result.plan) || JSON.stringify(result.request) !== JSON.stringify(first.result.request)) {
      throw new InputError(`${path}: planned a different sweep than ${first.path} (releases or request differ)`);
    }
    if (result.matrix.name !== first.result.matrix.name) throw new InputError(`${path}: matrix ${result.matrix.name}, not ${first.result.matrix.name}`);
    const other = seen.get(result.shard.index);
    if (other) throw new InputError(`${path}: shard ${result.shard.index}/${count} is also in ${other}`);
    seen.set(result.shard.index, path);
  }
  const missing = Array.from({ length: count ?? 0 }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length > 0) throw new InputError(`merge: shard ${missing.map((i) => `${i}/${count}`).join(', ')} missing`);

  const byKey = new Map(parts.flatMap(({ result }) => result.releases.map((run) => [releaseKey(run.release), run] as const)));
  const releases = first.result.plan.map((key) => {
    const run = byKey.get(key);
    if (!run) throw new InputError(`merge: no shard ran ${key}`);
    return run;
  });
  const { shard: _shard, ...rest } = first.result;
  return { ...rest, releases, changePoints: changePoints(releases), summary: summarize(releases) };
}
