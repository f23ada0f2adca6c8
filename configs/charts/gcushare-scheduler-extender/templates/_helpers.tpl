{{/* Labels every object of this chart carries. */}}
{{- define "gcushare.labels" -}}
app.kubernetes.io/part-of: gcushare
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/instance: {{ .Release.Name }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{- end -}}

{{/* The image reference: repository@digest when pinned, else
repository:tag (tag defaults to the chart's appVersion). */}}
{{- define "gcushare.image" -}}
{{- if .Values.image.digest -}}
{{ .Values.image.repository }}@{{ .Values.image.digest }}
{{- else -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}
{{- end -}}

{{/*
The config manager sees only kubeadm's static pod manifests and its own
directory, never the rest of the Kubernetes directory (admin.conf, CA keys).
*/}}
{{- define "gcushare.configManagerMounts" -}}
- name: manifests
  mountPath: {{ .Values.configManager.kubernetesDir }}/manifests
- name: gcushare-state
  mountPath: {{ .Values.configManager.kubernetesDir }}/gcushare
{{- end }}

{{- define "gcushare.configManagerVolumes" -}}
- name: manifests
  hostPath:
    path: {{ .Values.configManager.kubernetesDir }}/manifests
    type: Directory
- name: gcushare-state
  hostPath:
    path: {{ .Values.configManager.kubernetesDir }}/gcushare
    type: DirectoryOrCreate
{{- end }}
