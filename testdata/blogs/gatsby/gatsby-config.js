module.exports = {
  siteMetadata: { siteUrl: `https://gatsby.example.org` },
  plugins: [`gatsby-transformer-remark`],
}
