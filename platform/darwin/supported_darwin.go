package darwin

const supported = true
