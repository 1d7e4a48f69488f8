/**
 * Whether a process still runs, by its pid: temp files and run markers of a live process are its own, those of a
 * process that is gone are left-overs anyone may remove.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
