#version 450
// centroid interpolation and gl_SampleID (one sample: the centre, sample 0)
layout(location = 0) centroid in vec4 v;
layout(location = 0) out vec4 o;
void main() { o = v + vec4(float(gl_SampleID)); }
