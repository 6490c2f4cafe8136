export default defineNuxtConfig({
  modules: ['@nuxt/content'],
})
