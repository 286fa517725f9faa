// CPU time of one thread (or of a process's finished children) on Linux, from /proc. Node 20 has
// no per-thread cpuUsage, and the scan's benchmark needs the main thread's CPU apart from the
// workers'. Times are in 10 ms ticks (USER_HZ), so they are meant for totals over a whole run.
import { readFileSync } from 'node:fs';

/** Fields of /proc/…/stat counted after the command name: utime is the 12th, cutime the 14th. */
const OWN = 11;
const CHILDREN = 13;

/** utime + stime (or, with `children`, cutime + cstime) of `/proc/<path>/stat` in ms; NaN where /proc is missing. */
export function procCpuMs(path: string, children = false): number {
  try {
    const stat = readFileSync(`/proc/${path}/stat`, 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const at = children ? CHILDREN : OWN;
    return (Number(fields[at]) + Number(fields[at + 1])) * 10;
  } catch {
    return Number.NaN;
  }
}
