// The published static files every page reads before its first paint (the site content). The
// server writes them, with their checksums, into the app page it serves, so the first paint
// waits for no request of its own. Schema-free: the page's first script imports it.

export const BOOT_STATIC_FILES = [
  'app-config.json',
  'notification_bar.json',
  'bbl/mrecs.json',
  'wbbl/mrecs.json',
] as const

/** The id of the `<script type="application/json">` element holding them. */
export const BOOT_DATA_ELEMENT_ID = 'boot-static'

export interface BootStatic {
  /** checksums.json's `files`, so later reads revalidate as usual. */
  checksums: Record<string, string>
  /** Each boot file that exists, parsed. */
  files: Record<string, unknown>
}
