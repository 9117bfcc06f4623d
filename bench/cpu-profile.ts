/**
 * Summaries of a V8 .cpuprofile (what `node --cpu-prof` writes): self time per function
 * (functionName + script + line, summed over every node of the call tree) and per package.
 */
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

export interface CpuProfile {
  nodes: { id: number; callFrame: CallFrame }[];
  /** Microseconds, on the machine's monotonic clock (the same as process.hrtime). */
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface SelfTimeRow {
  function: string;
  where: string;
  package: string;
  self_ms: number;
  percent: number;
}

export interface ProfileSummary {
  /** Sampled time in the window, idle excluded. */
  busyMs: number;
  idleMs: number;
  samples: number;
  functions: SelfTimeRow[];
  packages: { package: string; self_ms: number; percent: number }[];
}

/** Which package, project folder or Node.js module a script belongs to. */
const packageOf = (url: string, repoRoot: string): string => {
  if (!url) return 'native (V8, GC, bindings)';
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/').slice(0, 2).join('/')}`;
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  const at = path.lastIndexOf('node_modules/');
  if (at >= 0) {
    const [scope, name] = path.slice(at + 'node_modules/'.length).split('/');
    return scope?.startsWith('@') ? `${scope}/${name}` : (scope ?? path);
  }
  const inRepo = relative(repoRoot, path);
  return inRepo.startsWith('..') ? path : `project: ${inRepo.split('/')[0]}/`;
};

const shortPlace = (url: string, line: number, repoRoot: string): string => {
  if (!url) return '';
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  const at = path.lastIndexOf('node_modules/');
  const short = at >= 0 ? path.slice(at + 'node_modules/'.length) : path.startsWith('/') ? relative(repoRoot, path) : path;
  return `${short}:${line + 1}`;
};

/**
 * Self time per function over the samples taken between `fromUs` and `toUs` (the load
 * window, start-up excluded), or over the whole profile when no window is given.
 */
export const summarizeProfile = (
  profile: CpuProfile,
  options: { repoRoot: string; fromUs?: number; toUs?: number; top?: number },
): ProfileSummary => {
  const byId = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const selfByFunction = new Map<string, { frame: CallFrame; us: number }>();
  const selfByPackage = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  let counted = 0;
  let time = profile.startTime;
  const { samples, timeDeltas } = profile;
  for (let index = 0; index < samples.length; index += 1) {
    time += timeDeltas[index] ?? 0;
    // A sample stands for the time until the next one.
    const duration = timeDeltas[index + 1] ?? 0;
    if (options.fromUs !== undefined && time < options.fromUs) continue;
    if (options.toUs !== undefined && time > options.toUs) break;
    const frame = byId.get(samples[index] as number);
    if (!frame) continue;
    counted += 1;
    if (frame.functionName === '(idle)') {
      idle += duration;
      continue;
    }
    busy += duration;
    const key = `${frame.functionName}\u0000${frame.url}\u0000${frame.lineNumber}`;
    const entry = selfByFunction.get(key) ?? { frame, us: 0 };
    entry.us += duration;
    selfByFunction.set(key, entry);
    const pkg = packageOf(frame.url, options.repoRoot);
    selfByPackage.set(pkg, (selfByPackage.get(pkg) ?? 0) + duration);
  }
  const percent = (us: number) => Math.round((1000 * us) / Math.max(busy, 1)) / 10;
  const ms = (us: number) => Math.round(us / 100) / 10;
  return {
    busyMs: ms(busy),
    idleMs: ms(idle),
    samples: counted,
    functions: [...selfByFunction.values()]
      .sort((a, b) => b.us - a.us)
      .slice(0, options.top ?? 10)
      .map(({ frame, us }) => ({
        function: frame.functionName || '(anonymous)',
        where: shortPlace(frame.url, frame.lineNumber, options.repoRoot),
        package: packageOf(frame.url, options.repoRoot),
        self_ms: ms(us),
        percent: percent(us),
      })),
    packages: [...selfByPackage]
      .sort((a, b) => b[1] - a[1])
      .map(([pkg, us]) => ({ package: pkg, self_ms: ms(us), percent: percent(us) })),
  };
};
