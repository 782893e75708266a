// Admission to the password hasher (issue 39 §6). Work in progress: the
// surge signal is off until the queue is built.

/** True while wrong passwords from new devices exceed what the hasher can serve. */
export function newDeviceSurge(): boolean {
  return false;
}
