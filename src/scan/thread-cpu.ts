// CPU time of one thread (or of a process's finished children) on Linux, from /proc. Node 20 has
// no per-thread cpuUsage, and the scan's benchmark needs the main thread's CPU apart from the
// workers'. Times are in 10 ms ticks (USER_HZ), so they are meant for totals over a whole run.
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';

/** Fields of /proc/…/stat counted after the command name: utime is the 12th, cutime the 14th. */
const OWN = 11;
const CHILDREN = 13;

/** utime + stime (or, with `children`, cutime + cstime) of `/proc/<path>/stat` in ms; NaN where /proc is missing. */
export function procCpuMs(path: string, children = false): number {
  try {
    return ticksMs(readFileSync(`/proc/${path}/stat`, 'latin1'), children ? CHILDREN : OWN);
  } catch {
    return Number.NaN;
  }
}

/**
 * The calling thread's CPU ms, read through a handle opened once (a scan worker asks with every
 * batch it answers: opening the file each time cost more than reading it). -1 where /proc is missing.
 */
export function threadCpuClock(): () => number {
  let fd: number;
  try {
    fd = openSync('/proc/thread-self/stat', 'r');
  } catch {
    return () => -1;
  }
  const buf = Buffer.alloc(1024);
  let open = true;
  return () => {
    if (!open) return -1;
    try {
      const n = readSync(fd, buf, 0, buf.length, 0);
      return ticksMs(buf.toString('latin1', 0, n), OWN);
    } catch {
      open = false;
      closeSync(fd);
      return -1;
    }
  };
}

function ticksMs(stat: string, at: number): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[at]) + Number(fields[at + 1])) * 10;
}
