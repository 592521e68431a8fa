import init, { compile, encodeShareLink, decodeShareLink } from "logicmd";

await init();
const text = '---\nspec_version: "1.0"\nname: bundled\nsteps:\n  a: {}\n  b: { needs: [a] }\n---\n';
const workflow = compile(text, null, null, null).workflow;
document.getElementById("out").textContent = JSON.stringify({
  order: workflow.order,
  roundTrip: decodeShareLink(encodeShareLink(text)).text === text,
});
