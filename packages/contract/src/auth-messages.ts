// The account calls' fixed messages: schema-free, so the browser imports them without zod.

/** The neutral answer to a reset request (the same for every email). */
export const PASSWORD_RESET_REQUESTED =
  'If an account exists for that email, we have sent a link to reset its password. Check your inbox.'
