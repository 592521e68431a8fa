import init from "logicmd";
import { createRoot } from "react-dom/client";

import "@xyflow/react/dist/style.css";
import "./styles.css";
import { App } from "./App.jsx";

// In the browser the WebAssembly is fetched once, before anything calls logicmd.
await init();
createRoot(document.getElementById("root")).render(<App />);
