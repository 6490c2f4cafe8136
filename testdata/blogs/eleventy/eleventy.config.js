export default function (eleventyConfig) {
  eleventyConfig.addPassthroughCopy("img");
}
