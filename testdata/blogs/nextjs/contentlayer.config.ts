export default makeSource({ contentDirPath: "data" });
