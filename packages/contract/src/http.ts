/**
 * On every API answer: the server's clock when the request arrived, in milliseconds since the
 * epoch. The browser sets its lockouts and countdowns by it, not by the device's clock
 * (decision 047): a phone whose clock runs fast would otherwise lock a match before it starts.
 */
export const SERVER_TIME_HEADER = 'x-server-time'
