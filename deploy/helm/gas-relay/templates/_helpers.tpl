{{- define "gas-relay.name" -}}
{{- .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "gas-relay.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "gas-relay.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ include "gas-relay.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{- define "gas-relay.selectorLabels" -}}
app.kubernetes.io/name: {{ include "gas-relay.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "gas-relay.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{- define "gas-relay.secretName" -}}
{{- default (printf "%s-secret" (include "gas-relay.fullname" .)) .Values.secret.existingSecret -}}
{{- end -}}

{{- define "gas-relay.chainsConfigMap" -}}
{{- default (printf "%s-chains" (include "gas-relay.fullname" .)) .Values.chains.existingConfigMap -}}
{{- end -}}

{{- define "gas-relay.metricsPort" -}}
{{- required "metrics.port is required: every role serves /metrics on it and the worker is probed on it" .Values.metrics.port -}}
{{- end -}}

{{/* Environment of every role: the config map of settings, the Secret, then the role's own. */}}
{{- define "gas-relay.envFrom" -}}
- configMapRef:
    name: {{ include "gas-relay.fullname" . }}-config
- secretRef:
    name: {{ include "gas-relay.secretName" . }}
{{- end -}}

{{- define "gas-relay.volumes" -}}
- name: chains
  configMap:
    name: {{ include "gas-relay.chainsConfigMap" . }}
- name: tmp
  emptyDir: {}
{{- end -}}

{{- define "gas-relay.volumeMounts" -}}
- name: chains
  mountPath: /etc/gas-relay
  readOnly: true
- name: tmp
  mountPath: /tmp
{{- end -}}

{{/* Restarts the pods when the settings or chains change (the Secret is outside the chart's view when existing). */}}
{{- define "gas-relay.configChecksum" -}}
checksum/config: {{ printf "%s%s" (toJson .Values.config) (toJson .Values.chains) | sha256sum }}
{{- end -}}
