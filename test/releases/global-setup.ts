// The real-process tests below run the shipped command, which needs its bundle (dist/).
import { buildCli, bundleIsFresh, sourceStamp } from '../../probe/bin/build.mjs';

export default async function setup(): Promise<void> {
  const stamp = sourceStamp();
  if (!bundleIsFresh(stamp)) await buildCli(stamp);
}
