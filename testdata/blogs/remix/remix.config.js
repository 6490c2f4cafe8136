/** @type {import("@remix-run/dev").AppConfig} */
module.exports = {};
