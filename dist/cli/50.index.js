export const id = 50;
export const ids = [50];
export const modules = {

/***/ 8050:
/***/ ((module) => {

module.exports = eval("require")("kerberos");


/***/ })

};
