// The command partners type (`npx aff ...`, package.json "bin"). Messages,
// help and the config folder use it, so renaming the CLI is a one-line change.
export const CLI_NAME = "aff"
