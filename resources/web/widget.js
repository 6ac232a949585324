// The notebook widget's view (anywidget; app/notebook_widget.py puts three.js, page.js and the page's
// markup and style before this): the web page's core built in a shadow root, so its ids and style
// stay apart from the notebook's and from other robots', and driven by the widget's model: the robot
// from "_robot", the configuration both ways, the readout of the body "selected". Robot text is shown
// by page.js with textContent only; PAGE_BODY and PAGE_CSS are shipped files, never robot text.
function render({ model, el }) {
  const host = document.createElement("div");
  host.className = "kinetree-widget";
  host.style.position = "relative";
  host.style.height = model.get("height") + "px";
  el.appendChild(host);
  const root = host.attachShadow({ mode: "open" });
  let page = null, status = null;
  const build = () => { // the page for the model's robot (again when Python shows another tree)
    if (page) page.dispose();
    root.innerHTML = "<style>" + PAGE_CSS + "</style>" + PAGE_BODY;
    status = root.getElementById("status");
    page = kinetreePage(root, model.get("_robot"), {
      moved: (q) => { model.set("configuration", q); model.save_changes(); },
      picked: (name) => { model.set("selected", name); model.save_changes(); },
    });
    host.kinetree = page; // the page's hooks (its window.kinetree), for tests
    configuration();
    selected();
  };
  const configuration = () => {
    try {
      page.setConfiguration(model.get("configuration"));
    } catch (e) {
      status.textContent = e.message;
    }
  };
  const selected = () => {
    try {
      page.setPoseOf(model.get("selected") ?? null);
    } catch (e) {
      status.textContent = e.message;
    }
  };
  build();
  model.on("change:_robot", build);
  model.on("change:configuration", configuration);
  model.on("change:selected", selected);
  const height = () => { host.style.height = model.get("height") + "px"; };
  model.on("change:height", height);
  return () => {
    model.off("change:_robot", build);
    model.off("change:configuration", configuration);
    model.off("change:selected", selected);
    model.off("change:height", height);
    page.dispose();
  };
}

export default { render };
