export default {
  title: "Docs",
  url: "https://docs.example.org",
};
