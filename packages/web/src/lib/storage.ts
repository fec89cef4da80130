// Local storage keys use an empty prefix and a '-1' suffix (spec 3: Local storage).
const key = (name: string) => `${name}-1`

export function readStored(name: string): string | null {
  try {
    return localStorage.getItem(key(name))
  } catch {
    return null
  }
}

export function writeStored(name: string, value: string): void {
  try {
    localStorage.setItem(key(name), value)
  } catch {
    // Private mode or a full quota: the app works without remembering.
  }
}

export function removeStored(name: string): void {
  try {
    localStorage.removeItem(key(name))
  } catch {
    // ignore
  }
}
