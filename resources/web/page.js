// KineTree web page: a robot's bodies moved by sliders, with the engine's forward kinematics,
// the Pose dock's readout, frames, the DH axes and the named poses. The robot comes as JSON in
// #kinetree-data (page.html), or from the notebook widget's model (widget.js); every text from it
// is shown with textContent, never parsed as HTML. kinetreePage(root, data, tell) builds the page
// inside root (the document, or the widget's shadow root) and returns its hooks; tell.moved(q) and
// tell.picked(name), when given, hear what the user does (sliders and poses; a click on a body, whose
// pose the readout then shows), not what setConfiguration and setPoseOf are told from outside.
function kinetreePage(root, data, tell) {
  "use strict";
  tell = tell || {};
  const byId = (id) => root.getElementById(id);
  const bodies = data.bodies;
  const nb = bodies.length;
  const q = Float64Array.from(data.q);
  const world = bodies.map(() => new Float64Array(16));
  const DISPLAY_ZERO = 1e-9; // kinetree.core.number_text.DISPLAY_ZERO
  const DEG = 180 / Math.PI; // numpy's degrees: x * (180 / pi)
  const status = byId("status");
  let lastFrame = NaN, lastLatency = NaN;
  let syncFrames = false; // frameTime() up to the frame's last pixel, not only its submission (benchmarks)
  let firstFrameAt = NaN;

  // bodies in depth order: a parent is always composed before its children
  const depth = new Int32Array(nb);
  for (let i = 0; i < nb; i++) {
    let d = 0;
    for (let p = bodies[i].parent; p >= 0; p = bodies[p].parent) d++;
    depth[i] = d;
  }
  const order = Array.from(depth.keys()).sort((a, b) => depth[a] - depth[b] || a - b);

  // --- forward kinematics: KinematicPlan.fk_single, in float64 ----------------------------
  function fk() {
    for (const i of order) {
      const b = bodies[i];
      let c0 = 0, c1 = 0, c2 = 0;
      if (b.kind === "rz") {
        const th = q[b.q] * b.gain + b.offset;
        c0 = Math.sin(th);
        c1 = 1 - Math.cos(th);
      } else if (b.kind === "tz") {
        c2 = q[b.q] * b.gain + b.offset;
      }
      const T = world[i];
      if (b.parent < 0) {
        for (let k = 0; k < 16; k++) T[k] = b.P0[k] + (c0 * b.P1[k] + c1 * b.P2[k] + c2 * b.P3[k]);
        continue;
      }
      const L = new Float64Array(16);
      for (let k = 0; k < 16; k++) L[k] = b.P0[k] + (c0 * b.P1[k] + c1 * b.P2[k] + c2 * b.P3[k]);
      const P = world[b.parent];
      for (let r = 0; r < 4; r++) {
        for (let c = 0; c < 4; c++) {
          T[r * 4 + c] = P[r * 4] * L[c] + P[r * 4 + 1] * L[4 + c] + P[r * 4 + 2] * L[8 + c] + P[r * 4 + 3] * L[12 + c];
        }
      }
    }
  }

  // --- the Pose dock's readout (kinetree.app.panels.pose.pose_readouts) --------------------
  function fixedText(value, d, signSpace) {
    // Python's f"{round(v, d) + 0.0:.{d}f}": exact decimal rounding, ties to even, never -0
    const v = Math.abs(value) < DISPLAY_ZERO ? 0 : value;
    const a = Math.abs(v);
    let s = a.toFixed(d); // ties away from zero
    const exact = a.toFixed(100);
    const dot = exact.indexOf(".");
    if (/^50*$/.test(exact.slice(dot + 1 + d)) && /[13579]$/.test(s.replace(".", ""))) {
      s = exact.slice(0, d ? dot + 1 + d : dot); // the tie goes to the even neighbour below
    }
    const neg = v < 0 && /[1-9]/.test(s);
    return (neg ? "-" : signSpace ? " " : "") + s;
  }
  function matrixText(T, d) {
    const rows = [0, 1, 2, 3].map((r) => [0, 1, 2, 3].map((c) => fixedText(T[r * 4 + c], d, false)));
    let width = d + 3;
    for (const r of rows) for (const c of r) width = Math.max(width, c.length);
    return rows.map((r) => r.map((c) => c.padStart(width)).join("  ")).join("\n");
  }
  function quat(R) { // matrix_to_quat (Shepperd)
    const tr = R(0, 0) + R(1, 1) + R(2, 2);
    const cand = [tr, R(0, 0), R(1, 1), R(2, 2)];
    let k = 0;
    for (let i = 1; i < 4; i++) if (cand[i] > cand[k]) k = i;
    let s, v;
    if (k === 0) {
      s = 2.0 * Math.sqrt(1.0 + tr);
      v = [0.25 * s, (R(2, 1) - R(1, 2)) / s, (R(0, 2) - R(2, 0)) / s, (R(1, 0) - R(0, 1)) / s];
    } else if (k === 1) {
      s = 2.0 * Math.sqrt(1.0 + R(0, 0) - R(1, 1) - R(2, 2));
      v = [(R(2, 1) - R(1, 2)) / s, 0.25 * s, (R(0, 1) + R(1, 0)) / s, (R(0, 2) + R(2, 0)) / s];
    } else if (k === 2) {
      s = 2.0 * Math.sqrt(1.0 - R(0, 0) + R(1, 1) - R(2, 2));
      v = [(R(0, 2) - R(2, 0)) / s, (R(0, 1) + R(1, 0)) / s, 0.25 * s, (R(1, 2) + R(2, 1)) / s];
    } else {
      s = 2.0 * Math.sqrt(1.0 - R(0, 0) - R(1, 1) + R(2, 2));
      v = [(R(1, 0) - R(0, 1)) / s, (R(0, 2) + R(2, 0)) / s, (R(1, 2) + R(2, 1)) / s, 0.25 * s];
    }
    const n = Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
    v = v.map((x) => x / n);
    return v[0] < 0 ? v.map((x) => -x) : v;
  }
  function readouts(T, d, degrees) {
    const R = (i, j) => T[i * 4 + j];
    const ang = degrees ? (v) => v * DEG : (v) => v;
    const unit = degrees ? "°" : " rad";
    const row = (values) => values.map((v) => fixedText(v, d, true)).join("  ");
    let y = Math.atan2(R(1, 0), R(0, 0));
    let c = Math.cos(y), s = Math.sin(y);
    const rpy = [Math.atan2(s * R(0, 2) - c * R(1, 2), c * R(1, 1) - s * R(0, 1)),
      Math.atan2(-R(2, 0), c * R(0, 0) + s * R(1, 0)), y];
    const phi = Math.atan2(R(1, 2), R(0, 2));
    c = Math.cos(phi); s = Math.sin(phi);
    const zyz = [phi, Math.atan2(c * R(0, 2) + s * R(1, 2), R(2, 2)),
      Math.atan2(c * R(1, 0) - s * R(0, 0), c * R(1, 1) - s * R(0, 1))];
    const qt = quat(R);
    const n = Math.sqrt(qt[1] * qt[1] + qt[2] * qt[2] + qt[3] * qt[3]);
    const angle = n > 1e-15 ? 2.0 * Math.atan2(n, qt[0]) : 0.0;
    const axis = n > 1e-15 ? [qt[1] / n, qt[2] / n, qt[3] / n] : [0, 0, 1];
    return {
      matrix: matrixText(T, d), x: row([T[3]]), y: row([T[7]]), z: row([T[11]]),
      rpy: row(rpy.map(ang)) + unit, zyz: row(zyz.map(ang)) + unit, quat: row(qt),
      axis_angle: "[" + row(axis) + "], " + fixedText(ang(angle), d, false) + unit,
    };
  }

  // --- the 3D view --------------------------------------------------------------------------
  const view = byId("view");
  let renderer = null, scene = null, camera = null, sizes = null;
  // Two kinds of frame (as Sketchfab and Potree do): for each move, a cheap one straight on the
  // canvas at half its resolution (the browser scales it up) and without antialiasing; REST_MS after
  // the last of those (no move waiting), one at full resolution with 4× MSAA, drawn in a render
  // target and copied onto the canvas (blitFramebuffer, WebGL2: a copy at the same size; a scaled
  // one is slow in software). Software WebGL spends its time filling pixels (the Puma's 1,600
  // triangles cost nothing): MSAA doubles that, half the resolution quarters it. The canvas's own
  // context has no MSAA.
  const REST_MS = 200, QUICK_SCALE = 0.5;
  // the background: three clears the canvas with a colour's sRGB value, a render target with its
  // linear one, so the target's colour holds the canvas's bytes as linear values
  const BACKGROUND = new THREE.Color(0x1e1f22);
  const BACKGROUND_IN_TARGET = new THREE.Color().setRGB(0x1e / 255, 0x1f / 255, 0x22 / 255, THREE.LinearSRGBColorSpace);
  let still = null, moving = false, movePending = false, restTimer = 0, frameKind = "";
  const groups = [];
  const frameItems = [], dhItems = [];
  function matrix4(m16) {
    const m = new THREE.Matrix4();
    m.set(...m16); // row-major, as the engine's 4×4
    return m;
  }
  function decode(b64, Type) {
    const bin = atob(b64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return new Type(bytes.buffer);
  }
  const geometries = data.meshes.map((m) => {
    const g = new THREE.BufferGeometry();
    g.setAttribute("position", new THREE.BufferAttribute(decode(m.v, Float32Array), 3));
    g.setIndex(new THREE.BufferAttribute(decode(m.f, Uint32Array), 1));
    g.computeVertexNormals();
    return g;
  });
  function visualObject(v) {
    let g;
    if (v.kind === "box") g = new THREE.BoxGeometry(v.size[0], v.size[1], v.size[2]);
    else if (v.kind === "sphere") g = new THREE.SphereGeometry(v.size[0], 20, 12);
    else if (v.kind === "cylinder") {
      g = new THREE.CylinderGeometry(v.size[0], v.size[0], v.size[1], 24);
      g.rotateX(Math.PI / 2); // three's cylinders run along y, the engine's along z
    } else g = geometries[v.mesh];
    const mat = new THREE.MeshLambertMaterial({ color: new THREE.Color(v.color[0], v.color[1], v.color[2]),
      side: THREE.DoubleSide, transparent: v.color[3] < 1, opacity: v.color[3] });
    const mesh = new THREE.Mesh(g, mat);
    mesh.matrixAutoUpdate = false;
    mesh.matrix.copy(matrix4(v.pose));
    if (v.kind === "mesh") mesh.matrix.multiply(new THREE.Matrix4().makeScale(v.size[0], v.size[1], v.size[2]));
    return mesh;
  }
  function line(points, color) {
    const g = new THREE.BufferGeometry().setFromPoints(points.map((p) => new THREE.Vector3(...p)));
    return new THREE.Line(g, new THREE.LineBasicMaterial({ color: color }));
  }
  function extent() { // the robot's size at its configuration, from its body origins
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    const add = (x, y, z) => { [x, y, z].forEach((v, k) => { lo[k] = Math.min(lo[k], v); hi[k] = Math.max(hi[k], v); }); };
    add(0, 0, 0);
    for (const T of world) add(T[3], T[7], T[11]);
    const center = lo.map((v, k) => (v + hi[k]) / 2);
    const radius = Math.max(0.05, Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]) / 2);
    return { center, radius };
  }
  function setupView() {
    try {
      renderer = new THREE.WebGLRenderer({ antialias: false });
    } catch (e) {
      status.textContent = "3D view unavailable (WebGL: " + e.message + "); the sliders and the pose still work.";
      renderer = null;
      return;
    }
    renderer.setPixelRatio(window.devicePixelRatio || 1);
    view.appendChild(renderer.domElement);
    if (renderer.capabilities.isWebGL2) { // WebGL1 (no blit): every frame straight on the canvas, without MSAA
      still = new THREE.WebGLRenderTarget(1, 1, { samples: 4, colorSpace: THREE.SRGBColorSpace });
      // three's flag for a target shown as the screen: the shaders write sRGB as they do for the
      // canvas, kept in plain RGBA8, so that the blit shows the pixels the canvas would hold
      still.isXRRenderTarget = true;
    }
    scene = new THREE.Scene();
    scene.add(new THREE.AmbientLight(0xffffff, 0.9));
    const base = new THREE.Group();
    for (const v of data.baseVisuals) base.add(visualObject(v));
    scene.add(base);
    for (let i = 0; i < nb; i++) {
      const g = new THREE.Group();
      g.matrixAutoUpdate = false;
      for (const v of bodies[i].visuals) g.add(visualObject(v));
      scene.add(g);
      groups.push(g);
    }
    fk();
    placeBodies();
    scene.updateMatrixWorld(true);
    let { center, radius } = extent(); // the body origins, with the visuals' box when there are any
    const box = new THREE.Box3().setFromObject(scene);
    if (!box.isEmpty()) {
      box.expandByPoint(new THREE.Vector3(...center));
      const sphere = box.getBoundingSphere(new THREE.Sphere());
      center = sphere.center.toArray();
      radius = Math.max(radius, sphere.radius);
    }
    const axes = (parent) => { // x red, y green, z blue (three's own helper fades each to another hue)
      const a = new THREE.AxesHelper(data.frameSize).setColors(0xff0000, 0x00c000, 0x2060ff);
      a.material.depthTest = false; // over the links, as the app draws its frames
      a.renderOrder = 1;
      parent.add(a);
      frameItems.push(a);
    };
    axes(base);
    groups.forEach(axes);
    // the DH overlay: z(i-1) and x(i) (standard DH), z(i) and x(i-1) (modified DH)
    const L = radius * 0.5;
    for (let i = 0; i < nb; i++) {
      const kind = bodies[i].dh;
      if (!kind) continue;
      const p = bodies[i].parent;
      const parent = p < 0 ? base : groups[p];
      const zOwner = kind === "dh" ? parent : groups[i];
      const xOwner = kind === "dh" ? groups[i] : parent;
      const z = line([[0, 0, -L], [0, 0, L]], 0x4080ff);
      const x = line([[0, 0, 0], [L, 0, 0]], 0xff5050);
      zOwner.add(z); xOwner.add(x);
      dhItems.push(z, x);
    }
    dhItems.forEach((o) => { o.visible = false; });
    // no camera given: the app's fit (app/viewport/camera.py: iso view, the robot's sphere inside
    // the narrower angle with 8% to spare; the app's fov of 60° is the horizontal one)
    const halfH = Math.PI / 6, halfV = Math.atan(Math.tan(halfH) * Math.max(1, view.clientHeight) / Math.max(1, view.clientWidth));
    const cam = data.camera || { center, distance: 1.08 * radius / Math.sin(Math.min(halfH, halfV)), elevation: 30, azimuth: 45, fov: 60 };
    camera = new THREE.PerspectiveCamera(60, 1, cam.distance * 0.001, cam.distance * 1000);
    camera.up.set(0, 0, 1);
    const el = cam.elevation * Math.PI / 180, az = cam.azimuth * Math.PI / 180;
    const c = cam.center;
    camera.position.set(c[0] + cam.distance * Math.cos(el) * Math.cos(az), c[1] + cam.distance * Math.cos(el) * Math.sin(az),
      c[2] + cam.distance * Math.sin(el));
    camera.lookAt(c[0], c[1], c[2]);
    camera.userData.hfov = cam.fov; // the app's fov is horizontal
    const light = new THREE.DirectionalLight(0xffffff, 1.6);
    camera.add(light);
    light.position.set(0.35, 0.45, 1.0);
    scene.add(camera);
    resize();
    renderer.domElement.addEventListener("click", (e) => {
      const i = bodyAt(e.clientX, e.clientY);
      if (i < 0) return;
      setPoseOf(bodies[i].name);
      update(false);
      if (tell.picked) tell.picked(bodies[i].name);
    });
    // the view's own size (a notebook cell may lay the widget out after it is built)
    sizes = new ResizeObserver(() => { resize(); requestDraw(); });
    sizes.observe(view);
  }
  function bodyAt(x, y) { // the body whose visual is nearest under the pointer (client pixels), or -1
    const r = renderer.domElement.getBoundingClientRect();
    const ray = new THREE.Raycaster();
    ray.setFromCamera(new THREE.Vector2((x - r.left) / r.width * 2 - 1, 1 - (y - r.top) / r.height * 2), camera);
    const meshes = groups.flatMap((g) => g.children.filter((o) => o.isMesh));
    const hit = ray.intersectObjects(meshes, false)[0];
    return hit ? groups.indexOf(hit.object.parent) : -1;
  }
  function screenOf(name) { // where a body's first visual's centre is drawn (client pixels), for tests
    const g = groups[bodies.findIndex((b) => b.name === name)];
    const mesh = g && g.children.find((o) => o.isMesh);
    if (!mesh || !renderer) return null;
    scene.updateMatrixWorld(true);
    const p = new THREE.Box3().setFromObject(mesh).getCenter(new THREE.Vector3()).project(camera);
    const r = renderer.domElement.getBoundingClientRect();
    return [r.left + (p.x + 1) / 2 * r.width, r.top + (1 - p.y) / 2 * r.height];
  }
  function resize() {
    if (!renderer) return;
    const w = Math.max(1, view.clientWidth), h = Math.max(1, view.clientHeight);
    renderer.setSize(w, h);
    const ratio = window.devicePixelRatio || 1; // three's drawing buffer at full resolution
    if (still) still.setSize(Math.floor(w * ratio), Math.floor(h * ratio));
    camera.aspect = w / h;
    camera.fov = 2 * Math.atan(Math.tan(camera.userData.hfov * Math.PI / 360) * h / w) * 180 / Math.PI;
    camera.updateProjectionMatrix();
  }

  // --- controls -----------------------------------------------------------------------------
  const joints = data.joints;
  const byName = new Map(joints.map((j) => [j.name, j]));
  const sliders = new Map();
  const degrees = byId("degrees");
  function shown(j, v) {
    return j.type === "revolute" && degrees.checked ? (v * DEG).toFixed(2) + "°" : v.toFixed(4) + (j.type === "revolute" ? " rad" : " m");
  }
  const sliderBox = byId("sliders");
  for (const j of joints) {
    const row = document.createElement("div");
    row.className = "joint";
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = j.label + (j.bounded ? "" : " (no limits: slider ±" + j.max.toFixed(2) + ")");
    name.title = j.name;
    const input = document.createElement("input");
    input.type = "range";
    input.min = j.min; input.max = j.max; input.step = "any";
    input.value = q[j.index];
    input.setAttribute("aria-label", j.name);
    const value = document.createElement("span");
    value.className = "value";
    input.addEventListener("input", () => setJoint(j.name, Number(input.value)));
    row.append(name, input, value);
    sliderBox.appendChild(row);
    sliders.set(j.name, { input, value, joint: j });
  }
  degrees.addEventListener("change", () => update(false));
  byId("show-frames").addEventListener("change", (e) => {
    frameItems.forEach((o) => { o.visible = e.target.checked; }); requestDraw();
  });
  byId("show-dh").addEventListener("change", (e) => {
    dhItems.forEach((o) => { o.visible = e.target.checked; }); requestDraw();
  });
  byId("title").textContent = data.title;
  let eeIndex = -1;
  function setPoseOf(name) { // whose pose the readout shows: a body's name, or null (none)
    eeIndex = name === null ? -1 : bodies.findIndex((b) => b.name === name);
    if (name !== null && eeIndex < 0) throw new Error("no body " + JSON.stringify(name));
    byId("ee").textContent = name === null ? "—" : name + " in " + data.base;
  }
  setPoseOf(data.endEffector);
  const poseTable = byId("pose");
  const poseCells = {};
  for (const [key, title] of [["matrix", "T"], ["x", "x"], ["y", "y"], ["z", "z"], ["rpy", "rpy"], ["zyz", "ZYZ"],
    ["quat", "quat"], ["axis_angle", "axis∠"]]) {
    const tr = document.createElement("tr");
    const th = document.createElement("th");
    th.textContent = title;
    const td = document.createElement("td");
    td.id = "pose-" + key;
    tr.append(th, td);
    poseTable.appendChild(tr);
    poseCells[key] = td;
  }
  function poseText() {
    if (eeIndex < 0) return null;
    return readouts(world[eeIndex], data.digits, degrees.checked);
  }

  function placeBodies() {
    for (let i = 0; i < nb; i++) {
      groups[i].matrix.copy(matrix4(world[i]));
      groups[i].matrixWorldNeedsUpdate = true;
    }
  }
  function draw(moving) {
    if (!renderer) return;
    placeBodies();
    frameKind = moving ? "quick" : "still";
    const ratio = (window.devicePixelRatio || 1) * (moving ? QUICK_SCALE : 1);
    if (renderer.getPixelRatio() !== ratio) { // the canvas's buffer, at a drag's start and end only
      renderer.setPixelRatio(ratio);
      resize();
    }
    if (moving || !still) {
      renderer.setClearColor(BACKGROUND);
      renderer.render(scene, camera);
      return;
    }
    renderer.setClearColor(BACKGROUND_IN_TARGET);
    const gl = renderer.getContext();
    renderer.setRenderTarget(still);
    const drawn = gl.getParameter(gl.FRAMEBUFFER_BINDING); // the multisampled one
    renderer.render(scene, camera);
    gl.bindFramebuffer(gl.READ_FRAMEBUFFER, drawn);
    gl.bindFramebuffer(gl.DRAW_FRAMEBUFFER, null);
    gl.blitFramebuffer(0, 0, still.width, still.height, 0, 0, still.width, still.height, gl.COLOR_BUFFER_BIT, gl.NEAREST);
    renderer.resetState(); // three's cached bindings, after the raw calls
  }
  function moved() { // a joint moved: its frame is a quick one
    moving = true;
    movePending = true;
  }
  function rest() { // REST_MS after the last quick frame: the still frame, unless a move waits for its own
    if (movePending) return; // that frame is quick and starts the wait again
    moving = false;
    requestDraw();
  }
  // a move updates the matrices and the readout at once; the view is drawn once per display frame
  // however many moves came in it (slider events, a script's setJoint calls: drawing each one
  // queued frames behind a slow software renderer)
  let work = 0, movedAt = NaN, drawPending = false, waiting = [], waitingStill = [];
  function requestDraw() {
    if (Number.isNaN(movedAt)) movedAt = performance.now();
    if (!drawPending) {
      drawPending = true;
      requestAnimationFrame(frame);
    }
  }
  function frame() {
    drawPending = false;
    const t0 = performance.now();
    const quickFrame = moving;
    movePending = false;
    draw(quickFrame);
    if (quickFrame) {
      clearTimeout(restTimer);
      restTimer = setTimeout(rest, REST_MS);
    }
    if (syncFrames && renderer) { // wait for the GPU to finish the frame (a pixel read stalls until it has)
      const gl = renderer.getContext();
      gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
    }
    const now = performance.now();
    lastFrame = work + (now - t0);
    lastLatency = now - movedAt;
    work = 0;
    movedAt = NaN;
    if (Number.isNaN(firstFrameAt)) firstFrameAt = now;
    const done = waiting;
    waiting = [];
    if (frameKind === "still") {
      done.push(...waitingStill);
      waitingStill = [];
    }
    done.forEach((resolve) => resolve());
  }
  function update(notify = true) {
    const t0 = performance.now();
    fk();
    for (const s of sliders.values()) {
      const v = q[s.joint.index];
      if (Number(s.input.value) !== v) s.input.value = v;
      s.value.textContent = shown(s.joint, v);
    }
    const text = poseText();
    for (const key in poseCells) poseCells[key].textContent = text ? text[key] : "";
    if (notify && tell.moved) tell.moved(Array.from(q));
    work += performance.now() - t0;
    requestDraw();
  }
  function settled() { // resolves once the still frame after the last move is drawn
    return new Promise((resolve) => {
      if (!renderer || (!moving && !drawPending && frameKind === "still")) resolve();
      else waitingStill.push(resolve);
    });
  }
  function setJoint(name, value) {
    const j = byName.get(name);
    if (!j) throw new Error("no joint " + JSON.stringify(name) + " has a slider");
    if (!Number.isFinite(value) || (j.bounded && (value < j.min || value > j.max))) {
      throw new Error("joint " + JSON.stringify(name) + ": " + value + " is outside its limits [" + j.min + ", " + j.max + "]");
    }
    q[j.index] = value;
    moved();
    update();
  }
  function setConfiguration(values) { // the whole vector, from outside (the widget's model): tell.moved is not told
    if (values.length !== q.length || !values.every(Number.isFinite)) {
      throw new Error("a configuration of " + q.length + " finite numbers is expected, got " + values.length);
    }
    if (animation) { cancelAnimationFrame(animation.id); animation = null; }
    if (values.some((v, i) => v !== q[i])) moved(); // not the widget's echo of the page's own move
    q.set(values);
    update(false);
  }

  // --- named poses and playback -----------------------------------------------------------
  const posesBox = byId("poses");
  let animation = null;
  function moveTo(targets, seconds) { // joint-space motion through the targets, eased
    if (animation) cancelAnimationFrame(animation.id);
    const path = [Float64Array.from(q), ...targets.map((t) => Float64Array.from(t))];
    const t0 = performance.now();
    const step = (now) => {
      const t = (now - t0) / 1000 / seconds;
      const k = Math.min(Math.floor(t), path.length - 2);
      const u = Math.min(1, t - k);
      const s = u * u * (3 - 2 * u);
      for (let i = 0; i < q.length; i++) q[i] = path[k][i] + (path[k + 1][i] - path[k][i]) * s;
      moved();
      update();
      animation = t < path.length - 1 ? { id: requestAnimationFrame(step) } : null;
    };
    animation = { id: requestAnimationFrame(step) };
  }
  for (const p of data.poses) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = p.name;
    b.addEventListener("click", () => moveTo([p.q], 1.0));
    posesBox.appendChild(b);
  }
  const play = byId("play");
  if (data.poses.length) play.addEventListener("click", () => moveTo(data.poses.map((p) => p.q), 1.0));
  else byId("poses-section").hidden = true;

  setupView();
  update(false);

  return {
    setJoint: setJoint,
    worldMatrices: () => Object.fromEntries(bodies.map((b, i) => [b.name, Array.from(world[i])])),
    poseText: poseText,
    frameTime: () => lastFrame, // the last frame's work: its moves' kinematics and readout, and its drawing
    frameLatency: () => lastLatency, // from the frame's first move to its drawing done (the display's wait included)
    settled: settled,
    frameInfo: () => { // the last frame: "quick" or "still", the pixels it drew and its MSAA samples (tests)
      const gl = renderer && renderer.getContext();
      const t = frameKind === "still" && still;
      return { kind: frameKind, width: gl && gl.drawingBufferWidth, height: gl && gl.drawingBufferHeight,
        samples: t ? t.samples : gl && gl.getParameter(gl.SAMPLES) };
    },
    nextFrame: () => new Promise((resolve) => { if (drawPending) waiting.push(resolve); else resolve(); }),
    syncFrames: (on) => { syncFrames = Boolean(on); },
    firstFrameAt: () => firstFrameAt,
    readouts: (m16, digits, deg) => readouts(Float64Array.from(m16), digits, deg),
    fixedText: fixedText,
    webgl: () => renderer !== null,
    joints: () => joints.map((j) => ({ name: j.name, min: j.min, max: j.max, index: j.index })),
    setConfiguration: setConfiguration,
    screenOf: screenOf,
    bodyAt: (x, y) => (renderer ? bodyAt(x, y) : -1),
    setPoseOf: (name) => { setPoseOf(name); update(false); },
    dispose: () => { // a notebook re-renders its widgets: give each view's WebGL context back
      if (animation) cancelAnimationFrame(animation.id);
      if (sizes) sizes.disconnect();
      clearTimeout(restTimer);
      if (still) still.dispose();
      if (renderer) { renderer.dispose(); renderer.forceContextLoss(); }
    },
  };
}
