import { randomBytes } from 'node:crypto'
import { createInterface } from 'node:readline/promises'
import { grantAdminBodySchema } from '@tipping/contract/admin'
import { PASSWORD_MAX, PASSWORD_MIN } from '@tipping/contract/constants'
import { systemClock } from '../clock.ts'
import { grantAdmin } from '../modules/admin/users/service.ts'
import { hashPassword } from '../modules/auth/passwords.ts'
import { runCli } from './context.ts'
import { answerHelp, usageError } from './usage.ts'

// npm run admin:create -- <email> : gives an existing account ROLE_ADMIN, or creates an admin
// account. The new account's password comes from ADMIN_PASSWORD, else a prompt (on a terminal),
// else a random one printed once. Running it again changes nothing.
const USAGE = `Usage: npm run admin:create -- <email>
  Gives the account with this email the admin role, or creates an admin account.
  A new account's password: ADMIN_PASSWORD, else a prompt on a terminal, else a random one
  printed once.`
answerHelp(USAGE)
const parsed = grantAdminBodySchema.safeParse({ email: process.argv[2] ?? '' })
if (!parsed.success || process.argv.length > 3) usageError(USAGE)
const { email } = parsed.data

async function choosePassword(): Promise<{ password: string; generated: boolean }> {
  const fromEnv = process.env.ADMIN_PASSWORD
  if (fromEnv !== undefined && fromEnv !== '') return { password: fromEnv, generated: false }
  if (process.stdin.isTTY) {
    const rl = createInterface({ input: process.stdin, output: process.stdout })
    try {
      const answer = await rl.question(
        `Password for the new account ${email} (empty for a random one): `,
      )
      if (answer !== '') return { password: answer, generated: false }
    } finally {
      rl.close()
    }
  }
  return { password: randomBytes(12).toString('base64url'), generated: true }
}

await runCli(async ({ db }) => {
  let chosen: { password: string; generated: boolean } | null = null
  const result = await grantAdmin(db, {
    email,
    now: systemClock.now(),
    passwordHash: async () => {
      chosen = await choosePassword()
      if (chosen.password.length < PASSWORD_MIN || chosen.password.length > PASSWORD_MAX)
        throw new Error(`The password must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`)
      return hashPassword(chosen.password)
    },
  })
  const made = chosen as { password: string; generated: boolean } | null
  if (result.created) {
    console.log(`Created admin account ${email} (user ${result.userId}).`)
    if (made?.generated) console.log(`Its password (shown once): ${made.password}`)
  } else if (result.changed) {
    console.log(`${email} (user ${result.userId}) is now an admin.`)
  } else {
    console.log(`${email} (user ${result.userId}) is already an admin; nothing changed.`)
  }
})
