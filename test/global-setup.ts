import { buildCli, bundleIsFresh, sourceStamp } from '../probe/bin/build.mjs';

export default async function setup(): Promise<void> {
  const stamp = sourceStamp();
  if (!bundleIsFresh(stamp)) await buildCli(stamp);
}
